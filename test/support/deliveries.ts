import { WorkflowNotFoundError } from '@temporalio/client';
import { WebhookRepository } from '../../src/store/webhook-repository';
import type { TestGateway } from './gateway';

export interface DeliveryOutcome {
  state: string;
  attempts: number;
  /** Whether the delivery went on in its own workflow (`webhook:<id>`) after a failed first attempt. */
  workflow: boolean;
}

/**
 * How a delivery ended, once the workflow that made it durable has finished: a first attempt
 * acknowledged inside that workflow leaves no delivery workflow, only the stored delivery; a failed
 * one handed over to `webhook:<id>`, whose result is awaited. Nothing stored: it was not sent.
 */
export async function deliveryOutcome(gw: TestGateway, deliveryId: string): Promise<DeliveryOutcome> {
  try {
    const r = await gw.rt.temporal.workflow.getHandle(`webhook:${deliveryId}`).result();
    return { ...(r as { state: string; attempts: number }), workflow: true };
  } catch (e) {
    if (!(e instanceof WorkflowNotFoundError)) throw e;
  }
  const stored = await new WebhookRepository(gw.rt.store.db, gw.rt.config.secrets.masterKey).find(deliveryId);
  if (!stored) return { state: 'not sent', attempts: 0, workflow: false };
  return { state: stored.state, attempts: stored.attempts.length, workflow: false };
}

/** The same, without the `workflow` flag, for tests about the outcome only. */
export const deliveryResult = async (gw: TestGateway, deliveryId: string) => {
  const { state, attempts } = await deliveryOutcome(gw, deliveryId);
  return { state: state.startsWith('not sent') ? 'not sent' : state, attempts };
};
