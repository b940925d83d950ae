/**
 * The transaction-level `responseCode`/`responseDescription` pairs the gateway reports (status API,
 * ledger, webhooks). The contract shows only 1021; the rest are ours and documented in docs/merchants/errors.md.
 */
export const PaymentResponse = {
  success: { code: '100', description: 'The transaction was completed successfully.' },
  pending: { code: '208', description: 'Transaction is in processing state.' },
  belowMinimum: { code: '1021', description: 'Minimum transaction limit is 9 rupees.' },
  declinedByBank: { code: '1022', description: 'Transaction declined by the bank.' },
  bankNoAnswer: { code: '1023', description: 'No response from the bank; transaction marked failed by the service.' },
  qrExpired: { code: '1024', description: 'The QR code or payment link expired before the payer paid.' },
  /** Zaakpay's code for a checkout the payer cancelled on the hosted page. */
  cancelledByPayer: { code: '102', description: 'Transaction cancelled by the payer.' },
} as const;

export type PaymentResponseKey = keyof typeof PaymentResponse;
