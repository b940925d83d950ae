import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  log,
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
/**
 * Outcomes a message decides (a late answer, a payer, a cancel, a timeout) are written by an activity
 * scheduled by a completed task, so the decision is in the history before anything is written (record).
 */
const remote = proxyActivities<PaymentActivities>(paymentActivityOptions);
/**
 * The bank request and the outcome's store write run as local activities, in the worker that runs
 * the workflow task, so a payment whose bank answers at once is one workflow task (no activity task
 * through the server, no second workflow task per result). What a crash costs: the
 * worker dying before the task completes loses the task, and the next worker re-runs every local
 * activity of it (after the 10 s workflow task timeout): the bank is asked again with the same txnId
 * (BankConnector: requests are idempotent per txnId, the same as for an activity retried after a
 * lost completion), the outcome write finds the order recorded already (`applied: false`, status
 * final: the webhook is still ensured, realtimeWebhookDue) and the first webhook attempt (made by
 * that same activity since `deliverRealtime`) is not sent again when the store shows it settled, or
 * is sent again with the same X-Webhook-Id when the crash came mid-call. A bank slower than the task
 * timeout keeps the task alive: the SDK heartbeats it.
 */
const local = proxyLocalActivities<PaymentActivities>(paymentActivityOptions);

// The status inquiry (design.md, Transactions and states): asked once; a bank unreachable for all
// its attempts counts as no answer.
const { inquireBankPayment } = proxyActivities<BankActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 5 },
});

/**
 * One payment of one order (workflow id `payment:<merchant>:<orderId>`): ask the bank, wait for a
 * late answer up to the configured timeout, then record Success or Failure exactly once.
 */
export async function paymentWorkflow(input: PaymentWorkflowInput): Promise<PaymentWorkflowResult> {
  const run = new PaymentRun(input);
  run.handleMessages();
  return run.pay();
}

type BankReply = Awaited<ReturnType<PaymentActivities['requestBankPayment']>>;

/** One payment's run: its stage, the messages it takes and the steps from the payer to the outcome. */
class PaymentRun {
  stage: PaymentStage;
  lateAnswer: BankAnswer | undefined;
  payer: PaymentInstrument | undefined;
  redirect: BankRedirect | null = null;
  cancelled = false;

  constructor(readonly input: PaymentWorkflowInput) {
    this.stage = input.awaitPayerMs === undefined ? 'requesting-bank' : 'awaiting-payer';
  }

  /** The stage and redirect queries, the bank's answer (signal and update), the QR's payer and the payer's cancel. */
  handleMessages() {
    setHandler(paymentStageQuery, () => this.stage);
    setHandler(bankRedirectQuery, () => this.redirect);
    // No command of its own (no timer): the caller bounds its wait.
    setHandler(awaitBankRedirectUpdate, async () => {
      await condition(() => this.stage !== 'awaiting-payer' && this.stage !== 'requesting-bank');
      return this.redirect;
    });
    setHandler(bankAnswerSignal, (answer) => {
      this.lateAnswer ??= answer; // the bank's first word counts; duplicates of a callback are ignored
    });
    setHandler(
      bankAnswerUpdate,
      (answer) => {
        this.lateAnswer = answer;
        return 'accepted' as const;
      },
      {
        // Refused once the workflow decided (or holds an answer already): the sender re-reads the
        // transaction and applies the answer as a delayed success, or asks its sender to retry.
        validator: (_answer: BankAnswer) => {
          if (!this.takesBankAnswer()) throw new Error('the payment has decided: read the transaction again');
        },
      },
    );
    this.handlePayerMessages();
  }

  /** The QR's payer and the payer's cancel, both taken only while the order waits for a payer. */
  handlePayerMessages() {
    setHandler(
      qrPayerUpdate,
      (instrument) => {
        this.payer = instrument;
        return 'accepted' as const;
      },
      {
        validator: (_payer: PaymentInstrument) => {
          if (!this.waitingForPayer()) throw new Error('the QR is not waiting for a payer');
        },
      },
    );
    setHandler(
      payerCancelUpdate,
      () => {
        this.cancelled = true;
        return 'cancelled' as const;
      },
      {
        validator: () => {
          if (!this.waitingForPayer()) throw new Error('the order is not waiting for a payer');
        },
      },
    );
  }

  takesBankAnswer(): boolean {
    return this.stage !== 'recording' && this.stage !== 'done' && this.lateAnswer === undefined && !this.cancelled;
  }

  waitingForPayer(): boolean {
    return this.stage === 'awaiting-payer' && this.payer === undefined && this.lateAnswer === undefined && !this.cancelled;
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
  async record(
    answer: BankAnswer | null,
    outcome: Pick<RecordOutcomeInput, 'expired' | 'cancelled' | 'refusedByBank' | 'instrument'> = {},
    how: { decidedByBankReply?: boolean } = {},
  ): Promise<PaymentWorkflowResult> {
    const input = this.input;
    this.stage = 'recording';
    const { recordPaymentOutcome } = how.decidedByBankReply ? local : remote;
    const recorded = await recordPaymentOutcome({
      merchantIdentifier: input.merchantIdentifier,
      orderId: input.orderId,
      txnId: input.txnId,
      amountPaise: input.amountPaise,
      // The first webhook attempt in the outcome's own activity: one local activity fewer.
      ...(input.realtimeWebhook !== false ? { deliverRealtime: true as const } : {}),
      answer,
      ...outcome,
    });
    upsertSearchAttributes([{ key: TxnStatusKey, value: recorded.status }]);
    // The workflow that changed the transaction tells the merchant, in real time unless the activity
    // reported a reconciliation's delayed success to the non-real-time webhook.
    if (input.realtimeWebhook !== false && realtimeWebhookDue(recorded)) await startRealtimeWebhook(input, { local: true });
    this.stage = 'done';
    return { txnId: input.txnId, status: recorded.status, markedFailedByService: answer === null && !outcome.cancelled };
  }

  /** The payment's steps: the payer (a QR's, a page's), the bank's reply, then a late answer or the timeout. */
  async pay(): Promise<PaymentWorkflowResult> {
    const input = this.input;
    let instrument = input.instrument;
    if (input.awaitPayerMs !== undefined) {
      const arrived = await condition(
        () => this.payer !== undefined || this.lateAnswer !== undefined || this.cancelled,
        input.awaitPayerMs,
      );
      if (!arrived) {
        log.info('nobody paid the QR before it expired', { txnId: input.txnId, awaitPayerMs: input.awaitPayerMs });
        return this.record(null, { expired: true });
      }
      // The payer walked away from a hosted checkout (nothing reached a bank).
      if (this.cancelled) return this.record(null, { cancelled: true });
      // Reconciliation may report the bank's answer for a QR paid outside our sight.
      if (this.payer === undefined) return this.record(this.lateAnswer!);
      instrument = this.payer;
      this.stage = 'requesting-bank';
    }

    let reply: BankReply;
    try {
      reply = await this.requestBank(instrument);
    } catch (e) {
      return this.bankRefused(e);
    }

    const withPayer = this.payer ? { instrument: this.payer } : {};
    if (reply.kind === 'answered') return this.record(reply.answer, withPayer, { decidedByBankReply: true });
    return this.awaitBank(reply.redirect ?? null);
  }

  requestBank(instrument: PaymentInstrument): Promise<BankReply> {
    const input = this.input;
    return local.requestBankPayment({
      txnId: input.txnId,
      merchantIdentifier: input.merchantIdentifier,
      orderId: input.orderId,
      amountPaise: input.amountPaise,
      instrument,
      // A page's payer (a link's, a checkout's) can be sent to the bank's own page.
      ...(input.instrument.kind === 'PAYMENT_LINK' || input.instrument.kind === 'CHECKOUT' ? { payerAtBrowser: true } : {}),
    });
  }

  /**
   * Only a non-retryable failure gets here (the retry policy has no attempt limit): the bank refused
   * the request, or answered about another payment. The order must not stay Pending for ever: it is
   * a Failure the service decided (a later approval still becomes a delayed success), with its webhook.
   * A local activity's failure reaches the workflow as the ApplicationFailure itself, not wrapped.
   */
  bankRefused(e: unknown): Promise<PaymentWorkflowResult> {
    const refusal = e instanceof ActivityFailure ? e.cause : e instanceof ApplicationFailure ? e : undefined;
    if (!refusal) throw e;
    log.warn('the bank refused the payment request; marking the payment failed', {
      txnId: this.input.txnId,
      error: String(refusal),
    });
    const withPayer = this.payer ? { instrument: this.payer } : {};
    return this.lateAnswer ? this.record(this.lateAnswer, withPayer) : this.record(null, { refusedByBank: true, ...withPayer });
  }

  /** A bank that answers later (a callback, or the page it sent the payer to): its answer, the inquiry or silence. */
  async awaitBank(redirect: BankRedirect | null): Promise<PaymentWorkflowResult> {
    const input = this.input;
    this.stage = 'awaiting-bank';
    this.redirect = redirect;
    const answered = await condition(() => this.lateAnswer !== undefined, input.bankTimeoutMs);
    let answer: BankAnswer | null = answered ? this.lateAnswer! : null;
    // Before giving up on a silent bank, ask it once (design.md, Transactions and states): only without a final answer is it 1023.
    if (!answered) answer = (await inquireOnce(input.txnId)) ?? this.lateAnswer ?? null;
    if (!answer)
      log.info('bank stayed silent; marking the payment failed', { txnId: input.txnId, bankTimeoutMs: input.bankTimeoutMs });
    return this.record(answer, this.payer ? { instrument: this.payer } : {});
  }
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
