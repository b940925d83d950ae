import { condition, patched, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { BankPayoutAnswer } from '../src/bank/connector';
import type { ClaimPhase, SettlementActivities, SettlementStep } from '../activities/settlement-activities';
import { settlementProcessedDeliveryId } from '../src/domain/settlement-webhook';
import {
  PAYOUT_INQUIRY_INTERVAL,
  releaseSettlementSignal,
  settlementStateQuery,
  settlementWorkflowId,
  type SettlementWorkflowInput,
  type SettlementWorkflowResult,
} from '../src/temporal/settlement-contract';
import { deliverWebhook } from './realtime-webhook';

const act = proxyActivities<SettlementActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});
/**
 * Claim pages and totals heartbeat as they go: an attempt that stops is retried within a minute,
 * and the settlement's claim fence keeps a stopped attempt that wakes up from writing after the totals.
 */
const claimAct = proxyActivities<SettlementActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * One merchant's settlement of one date (workflow id `settlement:<merchant>:<yyyy-MM-dd>`, also
 * the settlement's `_id` and the bank's payoutId). Each step is an idempotent activity: open (or
 * wait while the merchant is held), claim the due sales, refunds and chargebacks a page at a time,
 * total them with what earlier settlements carried out, ask the bank to pay (or wait again while
 * the merchant is held: a hold stops any settlement whose payout is not yet requested), record its
 * UTR, and (merchants opted in) hand the `settlement.processed` webhook to the payments' delivery
 * machinery.
 *
 * No continue-as-new: the history holds one small event group per page of 1,000 transactions (100
 * for a 100,000-payment day) plus a handful of steps, far below Temporal's limits; lines and
 * totals stay in the store, only cursors and sums travel through history.
 */
export async function settlementWorkflow(input: SettlementWorkflowInput): Promise<SettlementWorkflowResult> {
  const settlementId = settlementWorkflowId(input.merchantIdentifier, input.settlementDate);
  let state = 'opening';
  let released = false;
  setHandler(settlementStateQuery, () => state);
  setHandler(releaseSettlementSignal, () => {
    released = true;
  });

  let step = await act.openSettlement(input);
  while (step.state === 'held') {
    state = 'held';
    await condition(() => released);
    released = false;
    step = await act.openSettlement(input);
  }
  const done = (s: { state: string; netPaise: number; utr: string | null }): SettlementWorkflowResult => {
    state = s.state;
    return { settlementId, state: s.state as SettlementWorkflowResult['state'], netPaise: s.netPaise, utr: s.utr };
  };
  /**
   * A paid settlement of a merchant opted in hands its `settlement.processed` call over, under a
   * delivery id named by the settlement: a retried step, a replay or a repeated run (which finds the
   * settlement paid at once, and so heals a run that ended between the record and the hand-over)
   * finds the stored delivery and sends nothing twice. Histories recorded before the patch end without it.
   */
  const finish = async (s: SettlementStep): Promise<SettlementWorkflowResult> => {
    const result = done(s);
    if (s.state === 'paid' && s.processedWebhook && patched('settlement-processed-webhook')) {
      await deliverWebhook({
        deliveryId: settlementProcessedDeliveryId(input),
        merchantIdentifier: input.merchantIdentifier,
        orderId: '',
        settlementId,
      });
    }
    return result;
  };
  if (step.state !== 'open' && step.state !== 'payout_requested') return finish(step);

  if (step.state === 'open') {
    state = 'claiming';
    for (const phase of ['sales', 'adjustments'] as ClaimPhase[]) {
      let cursor = null;
      do cursor = (await claimAct.claimSettlementPage({ ...input, phase, cursor })).next;
      while (cursor);
    }
  }
  state = 'totalling';
  const totals = await claimAct.totalSettlement(input);
  if (!totals.pay) return done(totals);

  state = 'payout_requested';
  let answer: BankPayoutAnswer;
  if (patched('settlement-hold-before-payout')) {
    // A hold placed while claiming or totalling stops the settlement here, before the bank is asked.
    let payout = await act.requestSettlementPayoutUnlessHeld(input);
    while (payout.held) {
      state = 'held';
      await condition(() => released);
      released = false;
      state = 'payout_requested';
      payout = await act.requestSettlementPayoutUnlessHeld(input);
    }
    answer = payout.answer;
  } else answer = await act.requestSettlementPayout(input);
  while (answer.status === 'PENDING') {
    await sleep(PAYOUT_INQUIRY_INTERVAL);
    answer = await act.inquireSettlementPayout(input);
  }
  return finish(await act.recordSettlementPayout({ ...input, answer }));
}
