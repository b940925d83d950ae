/** Workflow id = business id, so Temporal itself refuses a second payment for one order. */
export const paymentWorkflowId = (merchantIdentifier: string, orderId: string) => `payment:${merchantIdentifier}:${orderId}`;
