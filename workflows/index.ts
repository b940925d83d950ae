export { paymentWorkflow } from './payment';
export { pendingPaymentsSweepWorkflow } from './pending-payments-sweep';
export { refundWorkflow } from './refund';
export { reconciliationWorkflow } from './reconciliation';
export { webhookDeliveryWorkflow } from './webhook';
export { webhookBatchWorkflow } from './webhook-batch';
export { mandateWorkflow } from './mandate';
export { mandateDebitWorkflow } from './mandate-debit';
