import type { Paise } from './money';

/**
 * UPI AutoPay mandates (design.md, Mandates and peak windows). A mandate is the payer's standing permission for
 * the merchant to debit up to `maxAmountPaise` per debit between startDate and endDate; each debit
 * (the first debit, an execution) is a transaction of its own.
 */
export const MANDATE_MODES = ['upiCollectMandate', 'upiIntentMandate', 'upiQrMandate'] as const;
export type MandateMode = (typeof MANDATE_MODES)[number];

/** NPCI's UPI AutoPay recurrence patterns; notify and execute apply to Adhoc mandates only. */
export const MANDATE_FREQUENCIES = [
  'OneTime',
  'Daily',
  'Weekly',
  'Fortnightly',
  'Monthly',
  'BiMonthly',
  'Quarterly',
  'HalfYearly',
  'Yearly',
  'Adhoc',
] as const;
export type MandateFrequency = (typeof MANDATE_FREQUENCIES)[number];

/**
 * CREATED (awaiting the payer) -> ACTIVE | DECLINED; ACTIVE -> REVOKED | EXPIRED, and -> INACTIVE
 * when the first debit fails. Every state but CREATED and ACTIVE is final.
 */
export type MandateState = 'CREATED' | 'ACTIVE' | 'DECLINED' | 'INACTIVE' | 'REVOKED' | 'EXPIRED';

export interface Mandate {
  merchantIdentifier: string;
  /** The create request's orderId: the mandate's name in the status API and its workflow id. */
  orderId: string;
  /** The gateway's id of the mandate (bankPostData.txnid). */
  txnId: string;
  mode: MandateMode;
  state: MandateState;
  /** The payer's VPA, decrypted. */
  payerVpa: string;
  /** The most one debit may take (the create request's orderDetail.amount). */
  maxAmountPaise: Paise;
  productDescription: string;
  frequency: MandateFrequency;
  /** IST midnight of startDate; the mandate is valid until IST midnight after endDate (`validUntil`). */
  validFrom: Date;
  validUntil: Date;
  firstDebit: boolean;
  firstDebitAmountPaise: Paise | null;
  /**
   * The first debit's own orderId, held for it from creation; null without a first debit (absent on
   * mandates stored before it was kept, whose orderIds are claimed at start-up).
   */
  firstDebitOrderId?: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When the sweep last ensured this CREATED mandate's workflow. */
  sweptAt?: Date;
}

/** A create request's mandateConfig, as the API accepted it (dates `yyyy-MM-dd`, amounts paise). */
export interface MandateConfigInput {
  firstDebit: boolean;
  firstDebitAmount?: number;
  frequency: MandateFrequency;
  startDate: string;
  endDate: string;
}

/** What a create request asks for, once authenticated, validated and its payerVpa decrypted. */
export interface MandateRequest {
  orderId: string;
  amountPaise: Paise;
  productDescription: string;
  mode: MandateMode;
  payerVpa: string;
  config: MandateConfigInput;
}

/** The payer's bank as mandate debits record it (the sandbox's one UPI bank). */
export const SANDBOX_MANDATE_BANK = 'Sandbox UPI Bank';

/**
 * The mandate API's response codes. 1101, 1109-1112, 1117 and 1118 are the contract's; the others
 * are the gateway's own (docs/merchants/mandates.md). Business results are HTTP 200.
 */
export const MandateResponse = {
  created: { code: '1101', description: 'Authorization successful: mandate created, awaiting the payer' },
  notified: { code: '1109', description: 'Notify success: the debit is scheduled' },
  notifyFailed: { code: '1110', description: 'Notify failed: the payer\u2019s bank refused the pre-debit notification' },
  executed: { code: '1111', description: 'Execute success' },
  executionFailed: { code: '1112', description: 'Execute failed' },
  inactive: { code: '1117', description: 'Mandate inactive: the first debit failed' },
  peakTime: { code: '1118', description: 'Peak-time restriction: no scheduling or execution 10:00-13:00 and 17:00-21:30 IST' },
  orderIdUsed: { code: '1102', description: 'Order id already used with another request' },
  parentNotFound: { code: '1113', description: 'No mandate with this mandateParentOrderId' },
  parentNotActive: { code: '1114', description: 'The parent mandate is not active' },
  notAdhoc: { code: '1115', description: 'Notify and execute apply to Adhoc mandates only' },
  leadTimeTooShort: { code: '1116', description: 'executionDate must be at least 24 hours after the request' },
  outsideValidity: { code: '1119', description: 'executionDate is outside the mandate\u2019s startDate and endDate' },
  amountAboveLimit: { code: '1120', description: 'The amount exceeds the mandate\u2019s amount' },
  nothingToExecute: {
    code: '1121',
    description: 'No notified debit with this orderId awaits confirmation now (executionDate to 24 hours after it)',
  },
  executeConfirmed: { code: '1122', description: 'Execution confirmed: the debit runs now' },
  executionLapsed: { code: '1123', description: 'Execution lapsed: autoExecute was false and the merchant never confirmed it' },
  executionCancelled: { code: '1124', description: 'Execution cancelled: the mandate was revoked or expired first' },
} as const;
export type MandateResponseKey = keyof typeof MandateResponse;

/** What a mandate request (create, notify or execute) answers: its code, and the payer's app links or QR when there are any. */
export interface MandateAnswer {
  key: MandateResponseKey;
  bankPostData: Record<string, string> | null;
}

/** A notify request: a debit under an Adhoc mandate, once authenticated and validated. */
export interface NotifyRequest {
  /** The debit's own orderId. */
  orderId: string;
  amountPaise: Paise;
  productDescription: string;
  mandateParentOrderId: string;
  executionDate: string;
  autoExecute: boolean;
}

/** The status API's view of a mandate (read by the create orderId): txnStatus and response code. */
export function mandateStatusView(state: MandateState): { txnStatus: '0' | '1' | '2'; code: string; description: string } {
  switch (state) {
    case 'CREATED':
      return { txnStatus: '2', code: '1101', description: 'Mandate created, awaiting the payer\u2019s approval' };
    case 'ACTIVE':
      return { txnStatus: '0', code: '1101', description: 'Mandate active' };
    case 'DECLINED':
      return { txnStatus: '1', code: '1125', description: 'Mandate declined by the payer' };
    case 'INACTIVE':
      return { txnStatus: '1', code: '1117', description: MandateResponse.inactive.description };
    case 'REVOKED':
      return { txnStatus: '1', code: '1126', description: 'Mandate revoked by the payer' };
    case 'EXPIRED':
      return { txnStatus: '1', code: '1127', description: 'Mandate expired after its endDate' };
  }
}

/** Why a notify may not debit under this mandate (state and kind only; timing is peak-windows.ts). */
export function notifyParentProblem(m: Pick<Mandate, 'state' | 'frequency'>): MandateResponseKey | null {
  if (m.frequency !== 'Adhoc') return 'notAdhoc';
  if (m.state === 'INACTIVE') return 'inactive';
  if (m.state !== 'ACTIVE') return 'parentNotActive';
  return null;
}

/** How long after executionDate a merchant may confirm an `autoExecute: false` execution. */
export const CONFIRMATION_WINDOW_MS = 24 * 3_600_000;

/** An execution: one attempt plus at most this many retries, each outside the peak windows. */
export const MAX_EXECUTION_RETRIES = 3;

/** A debit's bank request id: its txnId on the first attempt, `<txnId>R<n>` on retry n (each its own request). */
export const debitAttemptId = (txnId: string, attempt: number): string => (attempt === 0 ? txnId : `${txnId}R${attempt}`);

/**
 * The txnIds a bank's debitId can be of, the likelier first: itself, then, read as a retry, the id
 * before its `R<n>`. A txnId may itself end in R and digits, so the id as sent is never stripped alone.
 */
export function debitTxnIdsOf(debitId: string): string[] {
  const retryOf = debitId.replace(/R\d+$/, '');
  return retryOf === debitId ? [debitId] : [debitId, retryOf];
}
