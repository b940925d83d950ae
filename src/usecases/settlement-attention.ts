import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Settlement } from '../domain/settlement';
import {
  ATTENTION_REASONS,
  differenceDates,
  thresholdOf,
  UNFINISHED_SETTLEMENT_STATES,
  unfinishedReason,
  type AttentionReason,
  type AttentionThresholds,
  type SettlementsNeedingAttention,
  type UnfinishedSettlement,
} from '../domain/settlement-attention';
import { istDate } from '../domain/ist-time';
import type { SettlementAttentionRepository } from '../store/settlement-attention-repository';
import type { SettlementRepository } from '../store/settlement-repository';
import { settlementRunStatus, stoppedSettlementRuns } from '../temporal/settlement-client';

/** Items each list of needs attention holds at most (the metric counts these too). */
export const ATTENTION_LIMIT = 100;

export interface SettlementAttentionDeps {
  settlements: Pick<SettlementRepository, 'refusedNotCarried' | 'startFailuresListed'>;
  attention: SettlementAttentionRepository;
  config: {
    settlements: Pick<Config['settlements'], 'attentionOpenMinutes' | 'attentionPayoutMinutes' | 'attentionHeldMinutes'>;
  };
  temporal: Client;
  now: () => Date;
}

export const attentionThresholds = (c: SettlementAttentionDeps['config']): AttentionThresholds => ({
  openMs: c.settlements.attentionOpenMinutes * 60_000,
  heldMs: c.settlements.attentionHeldMinutes * 60_000,
  payoutMs: c.settlements.attentionPayoutMinutes * 60_000,
});

/**
 * What needs an operator about settlements: every one not final after its bounded time (or whose
 * workflow ended without finishing it), refused payouts not yet carried, held ones, merchants the
 * daily run could not start, bank files whose check failed, recent bank-file differences. Each
 * read is bounded (ATTENTION_LIMIT) and served by an index; a settlement's workflow is asked
 * about when it is past its time, or when Temporal lists its run among the stopped ones.
 */
export function settlementAttention(deps: SettlementAttentionDeps) {
  const { settlements, attention } = deps;
  const thresholds = attentionThresholds(deps.config);

  const unfinished = async (now: Date) => {
    const listed: UnfinishedSettlement[] = [];
    const seen = new Set<string>();
    const consider = async (s: Settlement) => {
      if (seen.has(s._id)) return;
      seen.add(s._id);
      const workflow = await settlementRunStatus(deps.temporal, s._id);
      const reason = unfinishedReason(s, workflow, now, thresholds);
      if (!reason) return;
      const { _id, merchantIdentifier, settlementDate, netPaise, createdAt, payoutRequestedAt } = s;
      listed.push({
        _id,
        merchantIdentifier,
        settlementDate,
        state: s.state,
        netPaise,
        createdAt,
        ...(payoutRequestedAt ? { payoutRequestedAt } : {}),
        reason,
        workflow: workflow ?? 'NOT_FOUND',
      });
    };
    for (const state of UNFINISHED_SETTLEMENT_STATES) {
      const before = new Date(now.getTime() - thresholdOf(thresholds, state));
      for (const s of await attention.inStateBefore(state, before, ATTENTION_LIMIT)) await consider(s);
    }
    // A workflow that stopped is listed at once, within its state's time too: Temporal lists the
    // stopped runs (newest first, bounded), the store says which of them left a settlement unfinished.
    const stopped = await stoppedSettlementRuns(deps.temporal, ATTENTION_LIMIT);
    for (const s of await attention.unfinishedByIds(stopped)) await consider(s);
    return listed;
  };

  return {
    async needsAttention(): Promise<SettlementsNeedingAttention> {
      const now = deps.now();
      const recentDates = differenceDates(istDate(now));
      // A payout the bank's file listed before the gateway recorded it paid is no longer a difference once it is.
      await attention.resolveRecordedPayouts(recentDates, now, ATTENTION_LIMIT);
      return {
        unfinished: await unfinished(now),
        refused: await settlements.refusedNotCarried(ATTENTION_LIMIT),
        held: await attention.held(ATTENTION_LIMIT),
        notStarted: await settlements.startFailuresListed(ATTENTION_LIMIT),
        bankFileFailures: await attention.failedFileChecks(ATTENTION_LIMIT),
        differences: await attention.differencesOn(recentDates, ATTENTION_LIMIT),
      };
    },

    /** How many are listed for each reason (the `settlements_needing_attention` gauge). */
    async counts(): Promise<Record<AttentionReason, number>> {
      const a = await this.needsAttention();
      const counts = Object.fromEntries(ATTENTION_REASONS.map((r) => [r, 0])) as Record<AttentionReason, number>;
      for (const u of a.unfinished) counts[u.reason]++;
      counts.payout_refused = a.refused.length;
      counts.not_started = a.notStarted.length;
      counts.bank_file_failed = a.bankFileFailures.length;
      counts.bank_difference = a.differences.length;
      return counts;
    },
  };
}
