import { parseIstDateTime, formatIstMandateDate } from '../domain/ist-time';
import { MandateResponse, type MandateAnswer } from '../domain/mandate';
import type { MandateData, MandateResponseBody } from './schemas/mandates';

/**
 * The contract's mandate response for an authenticated, valid request: the request's orderDetail
 * echoed with amountBreakdown, the upiMandate echoed (a create's mandateConfig dates as long text
 * dates at midnight IST), the answer's code and bankPostData.
 */
export function mandateResponse(data: MandateData, answer: MandateAnswer): MandateResponseBody {
  const code = MandateResponse[answer.key];
  const { upiMandate } = data.paymentInstrument;
  const config = upiMandate.mandateConfig;
  const longDate = (d: string) => formatIstMandateDate(parseIstDateTime(d)!);
  return {
    orderDetail: {
      ...data.orderDetail,
      amountBreakdown: {
        baseAmount: data.orderDetail.amount,
        convenienceFee: '0',
        gst: '0',
        totalAmount: data.orderDetail.amount,
      },
    },
    responseCode: code.code,
    responseDescription: code.description,
    doRedirect: 'false',
    paymentInstrument: {
      paymentMode: 'UPI_MANDATE',
      sendOtp: false,
      upiMandate: {
        ...upiMandate,
        ...(config && answer.key === 'created'
          ? { mandateConfig: { ...config, startDate: longDate(config.startDate), endDate: longDate(config.endDate) } }
          : {}),
      },
    },
    bankPostData: answer.bankPostData,
    paymentMode: 'UPI_MANDATE',
  };
}
