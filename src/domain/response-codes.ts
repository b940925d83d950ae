/**
 * Zaakpay's published outcome codes: the only transaction `responseCode`/`responseDescription` pairs
 * merchants see, the same on every surface (status API, /checkTxn, the legacy XML status, webhooks,
 * the checkout return, ledger and bulk), because merchants' code branches on them (design.md,
 * Outcome codes; docs/merchants/errors.md).
 */
export const PublishedOutcome = {
  /** Byte for byte Zaakpay's, trailing space included: its sample shows it and plugins compare it. */
  success: { code: '100', description: 'The transaction was completed successfully. ' },
  pending: { code: '208', description: 'Transaction is in processing state.' },
  belowMinimum: { code: '1021', description: 'Minimum transaction limit is 9 rupees.' },
  declinedByIssuer: { code: '400', description: 'The transaction was declined by the issuing bank.' },
  /** Zaakpay's code for an acquirer's refusal: the bank refused the payment request itself. */
  rejectedByAcquirer: { code: '401', description: 'The transaction was rejected by the acquiring bank.' },
  cancelledByPayer: { code: '102', description: 'Customer cancelled transaction.' },
  /** Every failure the service decides: no bank answer after the status inquiry, a QR, link or checkout that expired unpaid. */
  failed: { code: '183', description: 'Unfortunately, the transaction has failed.' },
} as const;
export type PublishedOutcomeKey = keyof typeof PublishedOutcome;

/**
 * The gateway's own reasons for a payment's outcome, as the store keeps them in a transaction's
 * `responseCode`/`responseDescription` (and the dashboard shows them), each with the published
 * outcome merchants are told. Several reasons share one published code (a silent bank and an expired
 * QR are both 183); the store keeps which one it was. Records written before the published codes
 * carry the same reason codes, so mapping at the edge serves them too.
 */
export const PaymentResponse = {
  success: { code: '100', description: 'The transaction was completed successfully.', published: 'success' },
  pending: { code: '208', description: 'Transaction is in processing state.', published: 'pending' },
  belowMinimum: { code: '1021', description: 'Minimum transaction limit is 9 rupees.', published: 'belowMinimum' },
  declinedByBank: { code: '1022', description: 'Transaction declined by the bank.', published: 'declinedByIssuer' },
  /** The bank refused the request (no decision about a payment): a later approval still becomes a delayed success. */
  refusedByBank: {
    code: '1025',
    description: 'The bank refused the payment request; transaction marked failed by the service.',
    published: 'rejectedByAcquirer',
  },
  bankNoAnswer: {
    code: '1023',
    description: 'No response from the bank; transaction marked failed by the service.',
    published: 'failed',
  },
  qrExpired: { code: '1024', description: 'The QR code or payment link expired before the payer paid.', published: 'failed' },
  /** Zaakpay's code for a checkout the payer cancelled on the hosted page. */
  cancelledByPayer: { code: '102', description: 'Transaction cancelled by the payer.', published: 'cancelledByPayer' },
} as const satisfies Record<string, { code: string; description: string; published: PublishedOutcomeKey }>;

export type PaymentResponseKey = keyof typeof PaymentResponse;

const PUBLISHED_BY_REASON_CODE: ReadonlyMap<string, { code: string; description: string }> = new Map(
  Object.values(PaymentResponse).map((r) => [r.code, PublishedOutcome[r.published]]),
);

export interface Outcome {
  responseCode: string;
  responseDescription: string;
}

/**
 * What merchants are told of a stored outcome: a payment reason becomes its published code and text;
 * any other code (a mandate's 11xx) is already the one merchants see and passes unchanged.
 */
export function publishedOutcome(stored: Outcome): Outcome {
  const p = PUBLISHED_BY_REASON_CODE.get(stored.responseCode);
  return p
    ? { responseCode: p.code, responseDescription: p.description }
    : { responseCode: stored.responseCode, responseDescription: stored.responseDescription };
}
