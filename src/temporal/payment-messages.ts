import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { BankAnswer, BankRedirect } from '../bank/connector';
import type { PaymentInstrument } from '../domain/instrument';

/**
 * The signal senders used before `bankAnswerUpdate`: kept registered so workflows started by an
 * older API (and their replays) still take it. New senders use the update.
 */
export const bankAnswerSignal = defineSignal<[BankAnswer]>('bankAnswer');

/**
 * A bank that answers later (a callback or a reconciliation line) offers its answer here. Accepted
 * only while the workflow has not decided (and has no answer yet): it then records this answer (or
 * the same bank's own reply about the same txnId, to the request or the status inquiry, when that
 * reply is already on its way). Once it decided (recording, done) the update is refused, so the sender re-reads the
 * transaction: a recorded service-decided Failure becomes a delayed success, a payment still being
 * recorded is refused to the sender for a retry (design.md, Transactions and states: never accepted and dropped).
 */
export const bankAnswerUpdate = defineUpdate<'accepted', [BankAnswer]>('bankAnswerUpdate');

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

/**
 * Answers once the workflow knows whether the payer must go to the bank: the redirect, or null when
 * the bank answered without one (or the payment is past asking). The hosted pages wait on it
 * instead of polling the query.
 */
export const awaitBankRedirectUpdate = defineUpdate<BankRedirect | null, []>('awaitBankRedirect');
