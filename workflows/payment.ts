import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { BankActivities } from '../activities/bank-activities';
import type { BankAnswer, BankRedirect } from '../src/bank/connector';
import type { PaymentActivities, RecordOutcomeInput } from '../activities/payment-activities';
import type { PaymentInstrument } from '../src/domain/instrument';
import {
  bankAnswerSignal,
  bankAnswerUpdate,
  awaitBankRedirectUpdate,
  bankRedirectQuery,
  payerCancelUpdate,
  paymentStageQuery,
  qrPayerUpdate,
  type PaymentStage,
} from '../src/temporal/payment-messages';
import type { PaymentWorkflowInput, PaymentWorkflowResult } from '../src/temporal/payment-contract';
import { TxnStatusKey } from '../src/temporal/search-attributes';
import { realtimeWebhookDue, startRealtimeWebhook } from './realtime-webhook';

const paymentActivityOptions = {
  startToCloseTimeout: '30 seconds',
  // Transient faults (store or bank unreachable) retry until they heal; the workflow never gives up
  // on recording an outcome, because a payment must not be left Pending forever.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
} as const;
/** Histories recorded before issue 35 scheduled these as activities; they replay so. */
const remote = proxyActivities<PaymentActivities>(paymentActivityOptions);
/**
 * Issue 35: the bank request and the outcome's store write run as local activities, in the worker
 * that runs the workflow task, so a payment whose bank answers at once is one workflow task (no
 * activity task through the server, no second workflow task per result). What a crash costs: the
 * worker dying before the task completes loses the task, and the next worker re-runs every local
 * activity of it (after the 10 s workflow task timeout): the bank is asked again with the same txnId
 * (BankConnector: requests are idempotent per txnId, the same as an activity retried after a lost
 * completion today), the outcome write finds the order recorded already (`applied: false`, status
 * final: the webhook is still ensured, realtimeWebhookDue) and the first webhook attempt (made by
 * that same activity since `deliverRealtime`) is not sent again when the store shows it settled, or
 * is sent again with the same X-Webhook-Id when the crash came mid-call. A bank slower than the task
 * timeout keeps the task alive: the SDK heartbeats it.
 */
const local = proxyLocalActivities<PaymentActivities>(paymentActivityOptions);

/**
 * One patch stands for every change of the payment path patched before it. Each `patched()` of a new
 * execution records a marker and (sdk-core, always) an upsert of the TemporalChangeVersion search
 * attribute, a visibility write on the server: three of them cost a payment about a sixth of what a
 * bare workflow costs here (docs/contributors/benchmarks.md). A payment started since records this
 * one; histories recorded before it do not have it, so there each change is asked as it was recorded.
 */
const CURRENT = 'payment-changes-through-2026-11';
/** The patches CURRENT stands for. */
type PaymentPatch = 'payment-local-activities' | 'realtime-webhooks' | 'bank-refusal-recorded' | 'bank-status-inquiry';

// The status inquiry (issue 21): asked once; a bank unreachable for all its attempts counts as no answer.
const { inquireBankPayment } = proxyActivities<BankActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/**
 * One payment of one order (workflow id `payment:<merchant>:<orderId>`): ask the bank, wait for a
 * late answer up to the configured timeout, then record Success or Failure exactly once.
 */
export async function paymentWorkflow(input: PaymentWorkflowInput): Promise<PaymentWorkflowResult> {
  // First, before any other command: whether this payment records the one patch (see CURRENT).
  const current = patched(CURRENT);
  const has = (change: PaymentPatch) => current || patched(change);
  /** Local activities for payments from issue 35 on; the activity commands of older histories before. */
  const paymentActivities = () => (has('payment-local-activities') ? local : remote);
  let stage: PaymentStage = input.awaitPayerMs === undefined ? 'requesting-bank' : 'awaiting-payer';
  let lateAnswer: BankAnswer | undefined;
  let payer: PaymentInstrument | undefined;
  let redirect: BankRedirect | null = null;
  let cancelled = false;
  setHandler(paymentStageQuery, () => stage);
  setHandler(bankRedirectQuery, () => redirect);
  // No command of its own (no timer: the caller bounds its wait), so histories recorded before replay as they are.
  setHandler(awaitBankRedirectUpdate, async () => {
    await condition(() => stage !== 'awaiting-payer' && stage !== 'requesting-bank');
    return redirect;
  });
  setHandler(bankAnswerSignal, (answer) => {
    lateAnswer ??= answer; // the bank's first word counts; duplicates of a callback are ignored
  });
  setHandler(
    bankAnswerUpdate,
    (answer) => {
      lateAnswer = answer;
      return 'accepted' as const;
    },
    {
      // Refused once the workflow decided (or holds an answer already): the sender re-reads the
      // transaction and applies the answer as a delayed success, or asks its sender to retry.
      validator: (_answer: BankAnswer) => {
        if (!takesBankAnswer()) throw new Error('the payment has decided: read the transaction again');
      },
    },
  );
  setHandler(
    qrPayerUpdate,
    (instrument) => {
      payer = instrument;
      return 'accepted' as const;
    },
    {
      validator: (_payer: PaymentInstrument) => {
        if (!waitingForPayer()) throw new Error('the QR is not waiting for a payer');
      },
    },
  );
  setHandler(
    payerCancelUpdate,
    () => {
      cancelled = true;
      return 'cancelled' as const;
    },
    {
      validator: () => {
        if (!waitingForPayer()) throw new Error('the order is not waiting for a payer');
      },
    },
  );
  function takesBankAnswer(): boolean {
    return stage !== 'recording' && stage !== 'done' && lateAnswer === undefined && !cancelled;
  }
  function waitingForPayer(): boolean {
    return stage === 'awaiting-payer' && payer === undefined && lateAnswer === undefined && !cancelled;
  }

  /**
   * `decidedByBankReply`: the outcome is the bank's synchronous reply, which no message can change,
   * so its write may be a local activity in this same task. A local activity's write stays done when
   * its task fails (a completion the server refuses because a message arrived meanwhile), and the
   * task's retry must then decide the same: true of the bank's reply (asked again with the same
   * txnId, the same answer), not of an outcome a message decides (a late answer, a payer, a cancel,
   * a timeout that raced one): there the write stays an activity, scheduled by a completed task, so
   * the decision is in the history before anything is written (the money model found the race).
   */
  const record = async (
    answer: BankAnswer | null,
    outcome: Pick<RecordOutcomeInput, 'expired' | 'cancelled' | 'refusedByBank' | 'instrument'> = {},
    how: { decidedByBankReply?: boolean } = {},
  ) => {
    stage = 'recording';
    const { recordPaymentOutcome } = how.decidedByBankReply ? paymentActivities() : remote;
    const recorded = await recordPaymentOutcome({
      merchantIdentifier: input.merchantIdentifier,
      orderId: input.orderId,
      txnId: input.txnId,
      amountPaise: input.amountPaise,
      // The first webhook attempt in the outcome's own activity: one local activity fewer.
      ...(current && input.realtimeWebhook !== false ? { deliverRealtime: true as const } : {}),
      answer,
      ...outcome,
    });
    upsertSearchAttributes([{ key: TxnStatusKey, value: recorded.status }]);
    // The workflow that changed the transaction tells the merchant, in real time unless the activity
    // reported a reconciliation's delayed success to the non-real-time webhook.
    if (input.realtimeWebhook !== false && realtimeWebhookDue(recorded, current) && has('realtime-webhooks'))
      await startRealtimeWebhook(input, { local: has('payment-local-activities'), current });
    stage = 'done';
    return { txnId: input.txnId, status: recorded.status, markedFailedByService: answer === null && !outcome.cancelled };
  };

  let instrument = input.instrument;
  if (input.awaitPayerMs !== undefined) {
    const arrived = await condition(() => payer !== undefined || lateAnswer !== undefined || cancelled, input.awaitPayerMs);
    if (!arrived) {
      log.info('nobody paid the QR before it expired', { txnId: input.txnId, awaitPayerMs: input.awaitPayerMs });
      return record(null, { expired: true });
    }
    // The payer walked away from a hosted checkout (nothing reached a bank).
    if (cancelled) return record(null, { cancelled: true });
    // Reconciliation may report the bank's answer for a QR paid outside our sight.
    if (payer === undefined) return record(lateAnswer!);
    instrument = payer;
    stage = 'requesting-bank';
  }

  let reply: Awaited<ReturnType<PaymentActivities['requestBankPayment']>>;
  try {
    reply = await paymentActivities().requestBankPayment({
      txnId: input.txnId,
      merchantIdentifier: input.merchantIdentifier,
      orderId: input.orderId,
      amountPaise: input.amountPaise,
      instrument,
      // A page's payer (a link's, a checkout's) can be sent to the bank's own page.
      ...(input.instrument.kind === 'PAYMENT_LINK' || input.instrument.kind === 'CHECKOUT' ? { payerAtBrowser: true } : {}),
    });
  } catch (e) {
    // Only a non-retryable failure gets here (the retry policy has no attempt limit): the bank refused
    // the request, or answered about another payment. The order must not stay Pending for ever: it is
    // a Failure the service decided (a later approval still becomes a delayed success), with its webhook.
    // A local activity's failure reaches the workflow as the ApplicationFailure itself, not wrapped.
    const refusal = e instanceof ActivityFailure ? e.cause : e instanceof ApplicationFailure ? e : undefined;
    if (!refusal || !has('bank-refusal-recorded')) throw e;
    log.warn('the bank refused the payment request; marking the payment failed', { txnId: input.txnId, error: String(refusal) });
    const withPayer = payer ? { instrument: payer } : {};
    return lateAnswer ? record(lateAnswer, withPayer) : record(null, { refusedByBank: true, ...withPayer });
  }

  if (reply.kind === 'answered') return record(reply.answer, payer ? { instrument: payer } : {}, { decidedByBankReply: true });
  stage = 'awaiting-bank';
  redirect = reply.redirect ?? null;
  const answered = await condition(() => lateAnswer !== undefined, input.bankTimeoutMs);
  let answer: BankAnswer | null = answered ? lateAnswer! : null;
  // Before giving up on a silent bank, ask it once (design.md, Transactions and states): only without a final answer is it 1023.
  if (!answered && has('bank-status-inquiry')) answer = (await inquireOnce(input.txnId)) ?? lateAnswer ?? null;
  if (!answer)
    log.info('bank stayed silent; marking the payment failed', { txnId: input.txnId, bankTimeoutMs: input.bankTimeoutMs });
  return record(answer, payer ? { instrument: payer } : {});
}

/** The status inquiry: the bank's final answer, or null when it has none (or cannot be reached). */
async function inquireOnce(txnId: string): Promise<BankAnswer | null> {
  try {
    return await inquireBankPayment({ txnId });
  } catch (e) {
    log.warn('status inquiry failed; treating the bank as silent', { txnId, error: String(e) });
    return null;
  }
}
