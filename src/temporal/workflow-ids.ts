/** Workflow id = business id, so Temporal itself refuses a second payment for one order. */
export const paymentWorkflowId = (merchantIdentifier: string, orderId: string) => `payment:${merchantIdentifier}:${orderId}`;

/** One refund: the merchant's refund id (merchantRefId) makes a repeated request the same refund. */
export const refundWorkflowId = (merchantIdentifier: string, orderId: string, merchantRefId: string) =>
  `refund:${merchantIdentifier}:${orderId}:${merchantRefId}`;

/** One UPI AutoPay mandate, named by the create request's orderId. */
export const mandateWorkflowId = (merchantIdentifier: string, orderId: string) => `mandate:${merchantIdentifier}:${orderId}`;

/** One debit under a mandate (the first debit or a notified execution), named by its own orderId. */
export const mandateDebitWorkflowId = (merchantIdentifier: string, orderId: string) =>
  `mandate-debit:${merchantIdentifier}:${orderId}`;
