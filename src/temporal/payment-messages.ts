import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { BankAnswer } from '../../activities/bank-connector';

/** A bank that answers later (a callback or a reconciliation line) delivers its answer here. */
export const bankAnswerSignal = defineSignal<[BankAnswer]>('bankAnswer');

export type PaymentStage = 'requesting-bank' | 'awaiting-bank' | 'recording' | 'done';
export const paymentStageQuery = defineQuery<PaymentStage>('stage');
