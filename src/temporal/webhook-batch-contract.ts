import { defineSignal } from '@temporalio/workflow';
import type { LateUpdate } from '../domain/webhook-late';

/*
 * The non-real-time webhook batch's contract (workflows/webhook-batch.ts): one per merchant, its
 * type name, id, input and the signal that brings it a late update.
 */

export const WEBHOOK_BATCH_WORKFLOW_TYPE = 'webhookBatchWorkflow';

/** One batching workflow per merchant. */
export const webhookBatchWorkflowId = (merchantIdentifier: string) => `webhook-batch:${merchantIdentifier}`;

/** A late update (a reconciliation success, an auto-refund) for the merchant's non-real-time webhook. */
export const lateUpdateSignal = defineSignal<[LateUpdate]>('lateUpdate');

export interface WebhookBatchInput {
  merchantIdentifier: string;
  /** How long updates are gathered before they are cut into calls (WEBHOOK_BATCH_WINDOW). */
  windowMs: number;
  /** Updates carried over by continue-as-new. */
  carried?: LateUpdate[];
  /** Late updates one run takes before it continues as new (default SIGNALS_PER_RUN; tests lower it). */
  signalsPerRun?: number;
}

/** The workflow's signature, for a typed start by name. */
export type WebhookBatchWorkflow = (input: WebhookBatchInput) => Promise<void>;
