import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  executeChild,
  log,
  proxyActivities,
  setHandler,
  sleep,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { MandateActivities } from '../activities/mandate-activities';
import { MAX_EXECUTION_RETRIES, type MandateState } from '../src/domain/mandate';
import {
  MANDATE_UPDATES_PER_RUN,
  mandateDebitSearchAttributes,
  mandateStateQuery,
  notifyDebitUpdate,
  revokeMandateUpdate,
  type NotifyDebitRequest,
  type NotifyDebitResult,
} from '../src/temporal/mandate-messages';
import { MandateFailure, type MandateWorkflowInput, type MandateWorkflowResult } from '../src/temporal/mandate-contract';
import { MandateStateKey } from '../src/temporal/search-attributes';
import { mandateDebitWorkflowId } from '../src/temporal/workflow-ids';
import {
  MANDATE_DEBIT_WORKFLOW_TYPE,
  type MandateDebitInput,
  type MandateDebitWorkflow,
} from '../src/temporal/mandate-debit-contract';
import { continueOntoCurrentBuild } from './continue-onto-current-build';
import { chunks, requireActive } from './mandate-helpers';
import { realtimeWebhookDue, startRealtimeWebhook } from './realtime-webhook';

/**
 * Our own bound on a run's history, should the server not suggest continuing as new. A run's
 * history depends on it: changing it needs a new worker build (docs/contributors/workflow-changes.md;
 * updatesPerRun travels in the input).
 */
const EVENTS_PER_RUN = 20_000;

const activities = proxyActivities<MandateActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * One UPI AutoPay mandate (workflow id `mandate:<merchant>:<orderId>`) from creation to its end:
 * CREATED until the payer answers, then ACTIVE or DECLINED. An approved mandate with firstDebit
 * debits at once and becomes INACTIVE (1117) if that fails. An ACTIVE mandate schedules the debits
 * merchants notify (each its own workflow) until the payer revokes it or its endDate passes; then
 * it cancels every debit still scheduled. It lives for years: its run continues as new long before
 * Temporal's per-run limits (untilEnded), and its end is acknowledged only once no debit attempt is
 * at the bank (the fence of claimDebitAtBank).
 */
export async function mandateWorkflow(input: MandateWorkflowInput): Promise<MandateWorkflowResult> {
  const run = new MandateRun(input);
  run.handleMessages();
  if (input.carried) return await run.untilEnded();
  return await run.fromCreation();
}

type DebitStart = Pick<MandateDebitInput, 'orderId' | 'txnId' | 'amountPaise' | 'executeAtMs' | 'autoExecute' | 'maxRetries'>;

/** One run of a mandate workflow: its state, the messages it takes and the steps of its life. */
class MandateRun {
  state: MandateState;
  /** The state the store holds: what the status API answers (it follows `state` by one activity). */
  recorded: MandateState;
  readonly debits: string[] = [];
  /** The debits (orderIds) that may still run: carried ones and this run's. */
  readonly scheduledDebits: string[];
  updatesHandled = 0;
  notifiesHandled = 0;
  /** Waiting for the notifies under way to finish before continuing as new: new ones are sent again. */
  handingOver = false;
  /** Debit starts (activities) in flight. */
  startsInFlight = 0;
  revokeRequested = false;
  readonly bankMandate: { merchantIdentifier: string; mandateOrderId: string };
  readonly bankMandateRef: { merchantIdentifier: string; orderId: string };

  constructor(readonly input: MandateWorkflowInput) {
    const carried = input.carried;
    this.state = carried ? 'ACTIVE' : 'CREATED';
    this.recorded = this.state;
    this.scheduledDebits = [...(carried?.pendingDebitOrderIds ?? [])];
    this.bankMandate = { merchantIdentifier: input.merchantIdentifier, mandateOrderId: input.orderId };
    this.bankMandateRef = { merchantIdentifier: input.merchantIdentifier, orderId: input.orderId };
  }

  /** While a run hands over, it takes no update: one it took would have to finish before the run ends. */
  refuseWhileHandingOver() {
    if (this.handingOver)
      throw ApplicationFailure.create({
        type: MandateFailure.CONTINUING_AS_NEW,
        message: 'the mandate is continuing as new: send again',
      });
  }

  async moveTo(next: MandateState) {
    const from = this.state;
    this.state = next;
    upsertSearchAttributes([{ key: MandateStateKey, value: next }]);
    await activities.recordMandateState({
      merchantIdentifier: this.input.merchantIdentifier,
      orderId: this.input.orderId,
      state: next,
      from: [from],
    });
    // The fence (claimDebitAtBank): an end is acknowledged only once no debit attempt is at the bank.
    if (next !== 'ACTIVE') await activities.awaitNoDebitAtBank(this.bankMandateRef);
    this.recorded = next;
  }

  /** The state query, and the revoke and notify updates. */
  handleMessages() {
    setHandler(mandateStateQuery, () => this.state);
    setHandler(
      revokeMandateUpdate,
      async () => {
        this.updatesHandled++;
        this.revokeRequested = true;
        // Answers once the store holds the end (so the status API agrees), with the state the mandate
        // ends in (INACTIVE when a first debit failed meanwhile).
        await condition(() => this.recorded !== 'ACTIVE' && this.recorded !== 'CREATED');
        return this.recorded;
      },
      {
        validator: () => {
          requireActive(this.state);
          this.refuseWhileHandingOver();
        },
      },
    );
    setHandler(
      notifyDebitUpdate,
      (request) => {
        this.updatesHandled++;
        this.notifiesHandled++;
        return this.scheduleDebit(request);
      },
      {
        validator: (_request: NotifyDebitRequest) => {
          requireActive(this.state);
          if (this.input.frequency !== 'Adhoc') throw new Error('notify applies to Adhoc mandates only');
          this.refuseWhileHandingOver();
        },
      },
    );
  }

  async scheduleDebit(request: NotifyDebitRequest): Promise<NotifyDebitResult> {
    const input = this.input;
    const notice = await activities.notifyMandateDebit({
      txnId: request.txnId,
      payerVpa: input.payerVpa,
      ...this.bankMandate, // the mandate as the bank knows it
      amountPaise: request.amountPaise,
      executeAtMs: request.executeAtMs,
    });
    if (!notice.accepted) return { kind: 'refused', reason: 'notifyFailed' };
    // The mandate may have ended while the payer's bank was asked.
    if (this.state !== 'ACTIVE') return { kind: 'refused', reason: this.state === 'INACTIVE' ? 'inactive' : 'parentNotActive' };
    const created = await activities.createMandateDebit({
      merchantIdentifier: input.merchantIdentifier,
      mandateOrderId: input.orderId,
      orderId: request.orderId,
      txnId: request.txnId,
      amountPaise: request.amountPaise,
      productDescription: request.productDescription,
      payerVpa: input.payerVpa,
      executeAtMs: request.executeAtMs,
    });
    if (!created.ours) return { kind: 'refused', reason: 'orderIdUsed' };
    // The mandate ended while the debit was stored: the debit is notified, and cancelled by that end
    // as a scheduled one would be, without a workflow (its start and the end's cancel could fall in
    // one workflow task, which Temporal refuses: the task would fail forever).
    if (this.state !== 'ACTIVE') {
      await this.cancelUnstartedDebit(request);
      return { kind: 'notified' };
    }
    await this.startDebit({
      orderId: request.orderId,
      txnId: request.txnId,
      amountPaise: request.amountPaise,
      executeAtMs: request.executeAtMs,
      autoExecute: request.autoExecute,
      maxRetries: MAX_EXECUTION_RETRIES,
    });
    return { kind: 'notified' };
  }

  /** Records a stored debit that never ran as cancelled (1124), and tells the merchant. */
  async cancelUnstartedDebit(d: Pick<NotifyDebitRequest, 'orderId' | 'txnId'>) {
    const debit = { merchantIdentifier: this.input.merchantIdentifier, orderId: d.orderId, txnId: d.txnId };
    const recorded = await activities.recordMandateDebitOutcome({ ...debit, result: 'executionCancelled', answer: null });
    if (this.input.realtimeWebhook !== false && realtimeWebhookDue(recorded)) await startRealtimeWebhook(debit);
  }

  async startDebit(d: DebitStart) {
    const workflowId = mandateDebitWorkflowId(this.input.merchantIdentifier, d.orderId);
    this.debits.push(workflowId);
    this.startsInFlight++;
    this.scheduledDebits.push(d.orderId);
    await activities.startMandateDebit(this.debitInput(d)).finally(() => this.startsInFlight--);
  }

  debitInput(d: DebitStart): MandateDebitInput {
    const input = this.input;
    return {
      ...d,
      merchantIdentifier: input.merchantIdentifier,
      mandateOrderId: input.orderId,
      payerVpa: input.payerVpa,
      retryIntervalMs: input.debitRetryIntervalMs,
      ...(input.realtimeWebhook === false ? { realtimeWebhook: false } : {}),
    };
  }

  readonly result = (): MandateWorkflowResult => ({ state: this.state, debits: this.debits });

  /** A new mandate: the payer's answer, the first debit if asked for, then ACTIVE until its end. */
  async fromCreation(): Promise<MandateWorkflowResult> {
    const input = this.input;
    // The payer answers in their UPI app (the sandbox payer: within a second or two).
    await sleep(input.payerAnswerDelayMs);
    const { approved } = await activities.requestMandateApproval({
      txnId: input.txnId,
      payerVpa: input.payerVpa,
      ...this.bankMandate,
    });
    if (!approved) {
      await this.moveTo('DECLINED');
      return this.result();
    }
    await this.moveTo('ACTIVE');

    if (input.firstDebit && !(await this.firstDebitExecuted(input.firstDebit))) {
      log.info('the first debit failed; the mandate is inactive', {
        orderId: input.orderId,
        firstDebit: input.firstDebit.orderId,
      });
      await this.moveTo('INACTIVE');
      await this.endScheduledDebits();
      return this.result();
    }

    return await this.untilEnded();
  }

  /** The debit an approved mandate makes at once (customer initiated): whether it was executed. */
  async firstDebitExecuted(first: NonNullable<MandateWorkflowInput['firstDebit']>): Promise<boolean> {
    const input = this.input;
    const created = await activities.createMandateDebit({
      merchantIdentifier: input.merchantIdentifier,
      mandateOrderId: input.orderId,
      orderId: first.orderId,
      txnId: first.txnId,
      amountPaise: first.amountPaise,
      productDescription: input.productDescription,
      payerVpa: input.payerVpa,
      executeAtMs: Date.now(),
    });
    const outcome = created.ours
      ? await executeChild<MandateDebitWorkflow>(MANDATE_DEBIT_WORKFLOW_TYPE, {
          workflowId: mandateDebitWorkflowId(input.merchantIdentifier, first.orderId),
          args: [
            {
              ...this.debitInput({ ...first, executeAtMs: Date.now(), autoExecute: true, maxRetries: 0 }),
              customerInitiated: true,
            },
          ],
          typedSearchAttributes: mandateDebitSearchAttributes({
            merchantIdentifier: input.merchantIdentifier,
            orderId: first.orderId,
          }),
        })
      : null;
    return outcome?.result === 'executed';
  }

  /**
   * ACTIVE: until the payer revokes or the mandate expires, continuing as new
   * whenever this run has handled enough updates or grown long. Before it does, it stops taking
   * notifies (they are sent again, to the next run) and waits for those under way, so each is
   * answered by the run that took it; the next run gets the debits still Pending to cancel at the end.
   */
  async untilEnded(): Promise<MandateWorkflowResult> {
    const input = this.input;
    const carried = input.carried;
    const perRun = input.updatesPerRun ?? MANDATE_UPDATES_PER_RUN;
    // A new current build (Worker Versioning) is a reason too: this run is pinned to the build that
    // began it, and the next one starts on the current build (continueOntoCurrentBuild).
    const handOverDue = () => {
      const info = workflowInfo();
      return (
        this.updatesHandled >= perRun ||
        info.continueAsNewSuggested ||
        info.historyLength >= EVENTS_PER_RUN ||
        info.targetWorkerDeploymentVersionChanged
      );
    };
    const expiresInMs = () => Math.max(1, input.validUntilMs - Date.now());
    while (await condition(() => this.revokeRequested || handOverDue(), expiresInMs())) {
      if (this.revokeRequested) break;
      // From here no update is taken (refuseWhileHandingOver); those under way finish first.
      this.handingOver = true;
      await condition(() => allHandlersFinished() && this.startsInFlight === 0);
      if (this.revokeRequested) break;
      const pendingDebitOrderIds = await this.pendingOf(this.scheduledDebits);
      await continueOntoCurrentBuild<typeof mandateWorkflow>({
        ...input,
        updatesPerRun: perRun,
        carried: {
          pendingDebitOrderIds,
          runsBefore: (carried?.runsBefore ?? 0) + 1,
          notifiesBefore: (carried?.notifiesBefore ?? 0) + this.notifiesHandled,
        },
      });
    }
    this.handingOver = false;
    await this.moveTo(this.revokeRequested ? 'REVOKED' : 'EXPIRED');
    await this.endScheduledDebits();
    return this.result();
  }

  /** The mandate's end: asks every debit still Pending to stop, then lets the notifies under way finish. */
  async endScheduledDebits(): Promise<void> {
    // A debit is asked to stop once its start has completed (a start in flight may still create it).
    await condition(() => this.startsInFlight === 0);
    for (const chunk of chunks(this.scheduledDebits)) {
      await activities.cancelMandateDebits({ merchantIdentifier: this.input.merchantIdentifier, orderIds: chunk });
    }
    // A notify under way stores its debit and records it cancelled before the mandate closes.
    await condition(allHandlersFinished);
  }

  async pendingOf(orderIds: string[]): Promise<string[]> {
    const pending: string[] = [];
    for (const chunk of chunks(orderIds)) {
      pending.push(
        ...(await activities.pendingMandateDebits({ merchantIdentifier: this.input.merchantIdentifier, orderIds: chunk })),
      );
    }
    return pending;
  }
}
