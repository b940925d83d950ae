import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MandateResponseKey, MandateState } from '../domain/mandate';
import { KindKey, MerchantIdKey, OrderIdKey } from './search-attributes';

/** A notify the API has checked: the mandate workflow asks the payer's bank, then schedules the debit. */
export interface NotifyDebitRequest {
  orderId: string;
  txnId: string;
  amountPaise: number;
  productDescription: string;
  /** executionDate as an instant, ms since the epoch. */
  executeAtMs: number;
  autoExecute: boolean;
}

export type NotifyDebitResult = { kind: 'notified' } | { kind: 'refused'; reason: MandateResponseKey };

/**
 * The mandate workflow schedules a debit: refused unless the mandate is ACTIVE (the validator), and
 * refused with type MandateFailure.CONTINUING_AS_NEW (mandate-contract.ts) for the moment the run hands over to its next one (the notify
 * is then sent again, and reaches the next run).
 */
export const notifyDebitUpdate = defineUpdate<NotifyDebitResult, [NotifyDebitRequest]>('notifyDebit');

/** The payer revokes the mandate (the sandbox plays the payer): refused unless it is ACTIVE. */
export const revokeMandateUpdate = defineUpdate<MandateState>('revokeMandate');

export const mandateStateQuery = defineQuery<MandateState>('mandateState');

export type MandateDebitStage = 'scheduled' | 'awaiting-confirmation' | 'debiting' | 'recording' | 'done';
export const mandateDebitStageQuery = defineQuery<MandateDebitStage>('debitStage');

/** The merchant confirms an `autoExecute: false` debit (action execute): accepted only while it waits. */
export const confirmDebitUpdate = defineUpdate<'confirmed'>('confirmDebit');

/**
 * Temporal refuses a run's 2,001st update, and past ~51,200 events or 2,000 pending children it
 * refuses more: a mandate notified daily for years gets there. Its run continues as new well before,
 * after this many updates or when the server suggests it (about 4,000 events; a notify takes ~20).
 * Each mandate gets it in its input at creation, so changing it changes only mandates created after.
 */
export const MANDATE_UPDATES_PER_RUN = 1_000;

/** A mandate debit's search attributes: Kind `mandate-debit`, its merchant and its own orderId. */
export const mandateDebitSearchAttributes = (d: { merchantIdentifier: string; orderId: string }) => [
  { key: MerchantIdKey, value: d.merchantIdentifier },
  { key: OrderIdKey, value: d.orderId },
  { key: KindKey, value: 'mandate-debit' },
];
