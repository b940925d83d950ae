/** Workflow id = business id, so Temporal itself refuses a second payment for one order. */
export const paymentWorkflowId = (merchantIdentifier: string, orderId: string) => `payment:${merchantIdentifier}:${orderId}`;

/** One refund: the merchant's refund id (merchantRefId) makes a repeated request the same refund. */
export const refundWorkflowId = (merchantIdentifier: string, orderId: string, merchantRefId: string) =>
  `refund:${merchantIdentifier}:${orderId}:${merchantRefId}`;
