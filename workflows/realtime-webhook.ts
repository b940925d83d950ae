import { ParentClosePolicy, startChild } from '@temporalio/workflow';
import { KindKey, MerchantIdKey, OrderIdKey } from '../src/temporal/search-attributes';

/**
 * The real-time webhook of an order's outcome, as its own workflow that outlives the caller. Its id
 * is the order's, so a replayed or repeated call finds it started and adds nothing.
 */
export async function startRealtimeWebhook(order: { merchantIdentifier: string; orderId: string }): Promise<void> {
  const deliveryId = `rt:${order.merchantIdentifier}:${order.orderId}`;
  await startChild('webhookDeliveryWorkflow', {
    workflowId: `webhook:${deliveryId}`,
    args: [{ deliveryId, merchantIdentifier: order.merchantIdentifier, orderId: order.orderId }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    typedSearchAttributes: [
      { key: MerchantIdKey, value: order.merchantIdentifier },
      { key: OrderIdKey, value: order.orderId },
      { key: KindKey, value: 'webhook' },
    ],
  }).catch((e: unknown) => {
    // Already started by an earlier run of this code path: the delivery exists, nothing to add.
    if ((e as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw e;
  });
}
