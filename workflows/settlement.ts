import { condition, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { ClaimPhase, SettlementActivities, SettlementStep } from '../activities/settlement-activities';
import { settlementProcessedDeliveryId } from '../src/domain/settlement-webhook';
import {
  CLAIM_PAGES_PER_RUN,
  PAYOUT_INQUIRIES_PER_RUN,
  PAYOUT_INQUIRY_INTERVAL,
  releaseSettlementSignal,
  settlementStateQuery,
  settlementWorkflowId,
  type SettlementWorkflowInput,
  type SettlementWorkflowResult,
} from '../src/temporal/settlement-contract';
import { continueOntoCurrentBuild } from './continue-onto-current-build';
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
  // A million-line total takes minutes; the heartbeat, not this bound, finds a stopped worker.
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * One merchant's settlement of one date (workflow id `settlement:<merchant>:<yyyy-MM-dd>`, also
 * the settlement's `_id` and the bank's payoutId). Each step is an idempotent activity: open (or
 * wait while the merchant is held), claim the due sales, refunds and chargebacks a page at a time,
 * total them with what earlier settlements carried out, ask the bank to pay (or wait again while
 * the merchant is held: a hold stops any settlement whose payout is not yet requested; or until a
 * recently changed bank account's cooling ends), record its
 * UTR, and (merchants opted in) hand the `settlement.processed` webhook to the payments' delivery
 * machinery.
 *
 * Bounded history at any volume: the run continues as new every CLAIM_PAGES_PER_RUN claim pages
 * (carrying the phase and cursor) and every PAYOUT_INQUIRIES_PER_RUN inquiries of a PENDING
 * payout; each continued run opens the settlement again (idempotent, and a hold placed meanwhile
 * is applied) and goes on from the stored state. Lines and totals stay in the store, only cursors
 * and sums travel through history. A refused payout ends the run `payout_refused`, never failed.
 */
export async function settlementWorkflow(input: SettlementWorkflowInput): Promise<SettlementWorkflowResult> {
  const settlementId = settlementWorkflowId(input.merchantIdentifier, input.settlementDate);
  // What the activities and a continued run are given: the claim position travels only in the input.
  const base: SettlementWorkflowInput = { merchantIdentifier: input.merchantIdentifier, settlementDate: input.settlementDate };
  let state = 'opening';
  let released = false;
  setHandler(settlementStateQuery, () => state);
  setHandler(releaseSettlementSignal, () => {
    released = true;
  });

  let step = await act.openSettlement(base);
  while (step.state === 'held') {
    state = 'held';
    await condition(() => released);
    released = false;
    step = await act.openSettlement(base);
  }
  const done = (s: { state: string; netPaise: number; utr: string | null }): SettlementWorkflowResult => {
    state = s.state;
    return { settlementId, state: s.state as SettlementWorkflowResult['state'], netPaise: s.netPaise, utr: s.utr };
  };
  /**
   * A paid settlement of a merchant opted in hands its `settlement.processed` call over, under a
   * delivery id named by the settlement: a retried step, a replay or a repeated run (which finds the
   * settlement paid at once, and so heals a run that ended between the record and the hand-over)
   * finds the stored delivery and sends nothing twice.
   */
  const finish = async (s: SettlementStep): Promise<SettlementWorkflowResult> => {
    const result = done(s);
    if (s.state === 'paid' && s.processedWebhook) {
      await deliverWebhook({
        deliveryId: settlementProcessedDeliveryId(base),
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
    const phases: ClaimPhase[] = ['sales', 'adjustments'];
    let pages = 0;
    for (const phase of phases.slice(input.claim ? phases.indexOf(input.claim.phase) : 0)) {
      let cursor = input.claim?.phase === phase ? input.claim.cursor : null;
      do {
        if (pages >= CLAIM_PAGES_PER_RUN)
          return continueOntoCurrentBuild<typeof settlementWorkflow>({ ...base, claim: { phase, cursor } });
        cursor = (await claimAct.claimSettlementPage({ ...base, phase, cursor })).next;
        pages++;
      } while (cursor);
    }
  }
  state = 'totalling';
  const totals = await claimAct.totalSettlement(base);
  if (!totals.pay) return done(totals);

  state = 'payout_requested';
  // A hold placed while claiming or totalling stops the settlement here, before the bank is asked.
  let payout = await act.requestSettlementPayoutUnlessHeld(base);
  while (payout.held) {
    state = 'held';
    if (payout.coolingUntil) {
      // A recently changed account: wait for its cooling to end, or a release (an early confirmation).
      const ms = Math.max(1_000, new Date(payout.coolingUntil).getTime() - Date.now());
      await condition(() => released, ms);
    } else await condition(() => released);
    released = false;
    state = 'payout_requested';
    payout = await act.requestSettlementPayoutUnlessHeld(base);
  }
  let answer = payout.answer;
  let inquiries = 0;
  while (answer.status === 'PENDING') {
    await sleep(PAYOUT_INQUIRY_INTERVAL);
    answer = await act.inquireSettlementPayout(base);
    if (answer.status === 'PENDING' && ++inquiries >= PAYOUT_INQUIRIES_PER_RUN)
      return continueOntoCurrentBuild<typeof settlementWorkflow>(base);
  }
  return finish(await act.recordSettlementPayout({ ...base, answer }));
}
