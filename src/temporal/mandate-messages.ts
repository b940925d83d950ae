import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MandateResponseKey, MandateState } from '../domain/mandate';

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

/** The mandate workflow schedules a debit: refused unless the mandate is ACTIVE (the validator). */
export const notifyDebitUpdate = defineUpdate<NotifyDebitResult, [NotifyDebitRequest]>('notifyDebit');

/** The payer revokes the mandate (the sandbox plays the payer): refused unless it is ACTIVE. */
export const revokeMandateUpdate = defineUpdate<MandateState>('revokeMandate');

export const mandateStateQuery = defineQuery<MandateState>('mandateState');

export type MandateDebitStage = 'scheduled' | 'awaiting-confirmation' | 'debiting' | 'recording' | 'done';
export const mandateDebitStageQuery = defineQuery<MandateDebitStage>('debitStage');

/** The merchant confirms an `autoExecute: false` debit (action execute): accepted only while it waits. */
export const confirmDebitUpdate = defineUpdate<'confirmed'>('confirmDebit');
