import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  executeChild,
  getExternalWorkflowHandle,
  log,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  startChild,
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
import { realtimeWebhookDue, startRealtimeWebhook } from './realtime-webhook';

/**
 * Our own bound on a run's history, should the server not suggest continuing as new. A run's
 * history depends on it: changing it needs a patched() gate (updatesPerRun travels in the input).
 */
const EVENTS_PER_RUN = 20_000;
/** Debits a cancel or prune activity handles at once (well inside its 30 s). */
const DEBITS_PER_ACTIVITY = 200;

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
  const carried = input.carried;
  // The long-lived shape (issue 30): debits started as workflows of their own, the end fenced against
  // debits at the bank, and continue-as-new. Runs begun before it keep the shape they began with.
  const longLived = carried !== undefined || patched('mandate-long-lived');
  let state: MandateState = carried ? 'ACTIVE' : 'CREATED';
  /** The state the store holds: what the status API answers (it follows `state` by one activity). */
  let recorded: MandateState = state;
  const debits: string[] = [];
  /** The long-lived shape's debits (orderIds) that may still run: carried ones and this run's. */
  const scheduledDebits: string[] = [...(carried?.pendingDebitOrderIds ?? [])];
  let updatesHandled = 0;
  let notifiesHandled = 0;
  /** Waiting for the notifies under way to finish before continuing as new: new ones are sent again. */
  let handingOver = false;
  // The endings of the debits this run started, which have ended, and how many starts are in flight.
  const debitsRunning: Promise<unknown>[] = [];
  const ended = new Set<string>();
  let startsInFlight = 0;
  let revokeRequested = false;
  const bankMandate = { merchantIdentifier: input.merchantIdentifier, mandateOrderId: input.orderId };
  const bankMandateRef = { merchantIdentifier: input.merchantIdentifier, orderId: input.orderId };
  setHandler(mandateStateQuery, () => state);
  /** While a run hands over, it takes no update: one it took would have to finish before the run ends. */
  const refuseWhileHandingOver = () => {
    if (handingOver)
      throw ApplicationFailure.create({
        type: MandateFailure.CONTINUING_AS_NEW,
        message: 'the mandate is continuing as new: send again',
      });
  };

  const moveTo = async (next: MandateState) => {
    const from = state;
    state = next;
    upsertSearchAttributes([{ key: MandateStateKey, value: next }]);
    await activities.recordMandateState({
      merchantIdentifier: input.merchantIdentifier,
      orderId: input.orderId,
      state: next,
      from: [from],
    });
    // The fence (claimDebitAtBank): an end is acknowledged only once no debit attempt is at the bank.
    if (longLived && next !== 'ACTIVE') await activities.awaitNoDebitAtBank(bankMandateRef);
    recorded = next;
  };

  setHandler(
    revokeMandateUpdate,
    async () => {
      updatesHandled++;
      revokeRequested = true;
      // Answers once the store holds the end (so the status API agrees), with the state the mandate
      // ends in (INACTIVE when a first debit failed meanwhile).
      await condition(() => recorded !== 'ACTIVE' && recorded !== 'CREATED');
      return recorded;
    },
    {
      validator: () => {
        requireActive(state);
        refuseWhileHandingOver();
      },
    },
  );

  setHandler(
    notifyDebitUpdate,
    (request) => {
      updatesHandled++;
      notifiesHandled++;
      return scheduleDebit(request);
    },
    {
      validator: (_request: NotifyDebitRequest) => {
        requireActive(state);
        if (input.frequency !== 'Adhoc') throw new Error('notify applies to Adhoc mandates only');
        refuseWhileHandingOver();
      },
    },
  );

  async function scheduleDebit(request: NotifyDebitRequest): Promise<NotifyDebitResult> {
    const notice = await activities.notifyMandateDebit({
      txnId: request.txnId,
      payerVpa: input.payerVpa,
      ...bankMandate, // the mandate as the bank knows it (issue 21)
      amountPaise: request.amountPaise,
      executeAtMs: request.executeAtMs,
    });
    if (!notice.accepted) return { kind: 'refused', reason: 'notifyFailed' };
    // The mandate may have ended while the payer's bank was asked.
    if (state !== 'ACTIVE') return { kind: 'refused', reason: state === 'INACTIVE' ? 'inactive' : 'parentNotActive' };
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
    if (state !== 'ACTIVE' && patched('mandate-debit-not-started-once-ended')) {
      await cancelUnstartedDebit(request);
      return { kind: 'notified' };
    }
    await startDebit({
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
  async function cancelUnstartedDebit(d: Pick<NotifyDebitRequest, 'orderId' | 'txnId'>) {
    const debit = { merchantIdentifier: input.merchantIdentifier, orderId: d.orderId, txnId: d.txnId };
    const recorded = await activities.recordMandateDebitOutcome({ ...debit, result: 'executionCancelled', answer: null });
    if (input.realtimeWebhook !== false && realtimeWebhookDue(recorded)) await startRealtimeWebhook(debit);
  }

  async function startDebit(
    d: Pick<MandateDebitInput, 'orderId' | 'txnId' | 'amountPaise' | 'executeAtMs' | 'autoExecute' | 'maxRetries'>,
  ) {
    const workflowId = mandateDebitWorkflowId(input.merchantIdentifier, d.orderId);
    debits.push(workflowId);
    startsInFlight++;
    if (longLived) {
      scheduledDebits.push(d.orderId);
      await activities.startMandateDebit(debitInput(d)).finally(() => startsInFlight--);
      return;
    }
    const handle = await startChild<MandateDebitWorkflow>(MANDATE_DEBIT_WORKFLOW_TYPE, {
      workflowId,
      args: [debitInput(d)],
      // The mandate cancels its debits explicitly when it ends, and waits for them to end.
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: mandateDebitSearchAttributes({ merchantIdentifier: input.merchantIdentifier, orderId: d.orderId }),
    })
      .catch((e: unknown) => {
        if ((e as Error).name !== 'WorkflowExecutionAlreadyStartedError') throw e;
      })
      .finally(() => startsInFlight--);
    const end = () => void ended.add(workflowId);
    if (handle) debitsRunning.push(handle.result().then(end, end));
  }

  // Only debits still running are asked to stop (the test server never answers a cancel of a closed
  // one); a debit started by an earlier attempt of the same notify has no handle here and is asked anyway.
  const stillRunning = () => debits.filter((id) => !ended.has(id));
  const debitInput = (
    d: Pick<MandateDebitInput, 'orderId' | 'txnId' | 'amountPaise' | 'executeAtMs' | 'autoExecute' | 'maxRetries'>,
  ): MandateDebitInput => ({
    ...d,
    merchantIdentifier: input.merchantIdentifier,
    mandateOrderId: input.orderId,
    payerVpa: input.payerVpa,
    retryIntervalMs: input.debitRetryIntervalMs,
    ...(input.realtimeWebhook === false ? { realtimeWebhook: false } : {}),
  });

  if (carried) return await untilEnded();

  // The payer answers in their UPI app (the sandbox payer: within a second or two).
  await sleep(input.payerAnswerDelayMs);
  const { approved } = await activities.requestMandateApproval({ txnId: input.txnId, payerVpa: input.payerVpa, ...bankMandate });
  if (!approved) {
    await moveTo('DECLINED');
    return { state, debits };
  }
  await moveTo('ACTIVE');

  if (input.firstDebit) {
    const first = input.firstDebit;
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
            { ...debitInput({ ...first, executeAtMs: Date.now(), autoExecute: true, maxRetries: 0 }), customerInitiated: true },
          ],
          typedSearchAttributes: mandateDebitSearchAttributes({
            merchantIdentifier: input.merchantIdentifier,
            orderId: first.orderId,
          }),
        })
      : null;
    if (outcome?.result !== 'executed') {
      log.info('the first debit failed; the mandate is inactive', { orderId: input.orderId, firstDebit: first.orderId });
      await moveTo('INACTIVE');
      await (longLived ? endScheduledDebits() : endDebits());
      return { state, debits };
    }
  }

  if (longLived) return await untilEnded();
  const revoked = await condition(() => revokeRequested, Math.max(1, input.validUntilMs - Date.now()));
  await moveTo(revoked ? 'REVOKED' : 'EXPIRED');
  await endDebits();
  return { state, debits };

  /**
   * The long-lived shape, ACTIVE: until the payer revokes or the mandate expires, continuing as new
   * whenever this run has handled enough updates or grown long. Before it does, it stops taking
   * notifies (they are sent again, to the next run) and waits for those under way, so each is
   * answered by the run that took it; the next run gets the debits still Pending to cancel at the end.
   */
  async function untilEnded(): Promise<MandateWorkflowResult> {
    const perRun = input.updatesPerRun ?? MANDATE_UPDATES_PER_RUN;
    const handOverDue = () =>
      updatesHandled >= perRun || workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= EVENTS_PER_RUN;
    const expiresInMs = () => Math.max(1, input.validUntilMs - Date.now());
    while (await condition(() => revokeRequested || handOverDue(), expiresInMs())) {
      if (revokeRequested) break;
      // From here no update is taken (refuseWhileHandingOver); those under way finish first.
      handingOver = true;
      await condition(() => allHandlersFinished() && startsInFlight === 0);
      if (revokeRequested) break;
      const pendingDebitOrderIds = await pendingOf(scheduledDebits);
      await continueAsNew<typeof mandateWorkflow>({
        ...input,
        updatesPerRun: perRun,
        carried: {
          pendingDebitOrderIds,
          runsBefore: (carried?.runsBefore ?? 0) + 1,
          notifiesBefore: (carried?.notifiesBefore ?? 0) + notifiesHandled,
        },
      });
    }
    handingOver = false;
    await moveTo(revokeRequested ? 'REVOKED' : 'EXPIRED');
    await endScheduledDebits();
    return { state, debits };
  }

  /** The long-lived shape's end: asks every debit still Pending to stop, then lets the notifies under way finish. */
  async function endScheduledDebits(): Promise<void> {
    // A debit is asked to stop once its start has completed (a start in flight may still create it).
    await condition(() => startsInFlight === 0);
    for (const chunk of chunks(scheduledDebits)) {
      await activities.cancelMandateDebits({ merchantIdentifier: input.merchantIdentifier, orderIds: chunk });
    }
    // A notify under way stores its debit and records it cancelled before the mandate closes.
    await condition(allHandlersFinished);
  }

  async function pendingOf(orderIds: string[]): Promise<string[]> {
    const pending: string[] = [];
    for (const chunk of chunks(orderIds)) {
      pending.push(...(await activities.pendingMandateDebits({ merchantIdentifier: input.merchantIdentifier, orderIds: chunk })));
    }
    return pending;
  }

  /** Once the mandate has ended: cancels the debits still scheduled and waits for them and for every notify under way. */
  async function endDebits(): Promise<void> {
    // A debit is asked to stop only once its start is acknowledged: Temporal refuses a start and a
    // cancel of one child in one workflow task, and the task then fails forever.
    if (patched('mandate-cancels-started-debits')) await condition(() => startsInFlight === 0);
    await cancelDebits(stillRunning());
    // A debit that closes after its mandate would report to a closed parent; the time-skipping test
    // server then holds its clock still for good. Cancelled debits end in moments.
    await Promise.all(debitsRunning);
    // A notify under way stores its debit and records it cancelled before the mandate closes.
    // (Before this patch the mandate awaited the flag itself, which waits for nothing.)
    if (patched('mandate-waits-for-its-notifies')) await condition(allHandlersFinished);
  }
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += DEBITS_PER_ACTIVITY) out.push(items.slice(i, i + DEBITS_PER_ACTIVITY));
  return out;
}

function requireActive(state: MandateState): void {
  if (state === 'INACTIVE')
    throw ApplicationFailure.create({ type: MandateFailure.INACTIVE, message: 'the mandate is inactive' });
  if (state !== 'ACTIVE')
    throw ApplicationFailure.create({ type: MandateFailure.NOT_ACTIVE, message: `the mandate is ${state}` });
}

/** Asks every scheduled debit to stop; those already finished ignore it. */
async function cancelDebits(ids: string[]): Promise<void> {
  for (const id of ids) {
    await getExternalWorkflowHandle(id)
      .cancel()
      .catch((e: unknown) =>
        log.info('debit already ended; nothing to cancel', { id, error: String(e), mandate: workflowInfo().workflowId }),
      );
  }
}
