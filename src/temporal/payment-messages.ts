import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { BankAnswer, BankRedirect } from '../../activities/bank-connector';
import type { PaymentInstrument } from '../domain/instrument';

/** A bank that answers later (a callback or a reconciliation line) delivers its answer here. */
export const bankAnswerSignal = defineSignal<[BankAnswer]>('bankAnswer');

/**
 * A payer paying an open dynamic QR. Accepted at most once, and only while the QR waits for its
 * payer: the validator refuses every other call, so two payers can never both pay.
 */
export const qrPayerUpdate = defineUpdate<'accepted', [PaymentInstrument]>('qrPayer');

/**
 * The payer cancels a hosted checkout: accepted only while the order waits for its payer (the same
 * moment the payer update is), so a payment and a cancel never both happen. Records Failure 102.
 */
export const payerCancelUpdate = defineUpdate<'cancelled', []>('payerCancel');

export type PaymentStage = 'awaiting-payer' | 'requesting-bank' | 'awaiting-bank' | 'recording' | 'done';
export const paymentStageQuery = defineQuery<PaymentStage>('stage');

/** Where the payer's browser must go to authenticate at the bank (card, net banking over http); null otherwise. */
export const bankRedirectQuery = defineQuery<BankRedirect | null>('bankRedirect');
