import type { PaymentInstrument } from '../../domain/instrument';
import type { OrderRef } from '../../domain/order-ref';
import { redirectUrl, type PagePayment } from '../hosted-page';
import { HtmlPage, Redirect } from '../operation';
import { bankFormPage } from '../pages/layout';
import type { PayerUseCases } from './use-cases';

/**
 * Where the payer's browser goes once a page's pay form was taken: to the bank's page (card and net
 * banking over http; a bank wanting a POST gets a form page the payer sends on), or back to the page.
 */
export async function afterPayment(
  payer: Pick<PayerUseCases, 'awaitBankRedirect'>,
  pp: PagePayment,
  o: { order: OrderRef; accepted: boolean; instrument: PaymentInstrument; pagePath: string },
): Promise<HtmlPage | Redirect> {
  const redirect =
    o.accepted && pp.cardAtBank && ['CARD', 'NETBANKING'].includes(o.instrument.kind)
      ? await payer.awaitBankRedirect(o.order)
      : null;
  if (redirect?.method === 'POST')
    return new HtmlPage(200, bankFormPage(redirect), {}, { formAction: pp.bankOrigin ? [pp.bankOrigin] : [] });
  // To the bank's page (it sends the payer back to the gateway), or back to the page: paid, already
  // paid by someone else, or closed meanwhile, the page says which.
  return new Redirect(redirect ? redirectUrl(redirect) : o.pagePath);
}
