import type { Settlement } from '../../../src/domain/settlement';
import { listedAmong, needsAttention } from './liveness';
import type { World } from './world';

type Stored = Settlement & { payoutRequestedAt?: Date };

/**
 * The settlements of the sequence a check excuses for not having ended: those needs-attention
 * lists, and those whose workflow still runs within the time their state is allowed
 * (SETTLEMENT_ATTENTION_*_MINUTES, from the payout's request for a requested payout, else from the
 * settlement's creation). A payout the bank answers PENDING for hours is such a settlement: it is
 * neither ended nor owed a listing yet. The liveness check, after days of skips, finds it listed.
 */
export async function excusedSettlements(w: World): Promise<Set<string>> {
  const rt = w.stack.gw.rt;
  const excused = listedAmong(await needsAttention(w), w.settlements);
  const minutes = {
    open: rt.config.settlements.attentionOpenMinutes,
    held: rt.config.settlements.attentionHeldMinutes,
    payout_requested: rt.config.settlements.attentionPayoutMinutes,
  } as Record<string, number>;
  const now = rt.now().getTime();
  const stored = await rt.store.db
    .collection<Stored>('settlements')
    .find({ _id: { $in: w.settlements.filter((id) => !excused.has(id)) } })
    .toArray();
  for (const s of stored) {
    const allowed = minutes[s.state];
    if (allowed === undefined) continue;
    const since = (s.state === 'payout_requested' && s.payoutRequestedAt ? s.payoutRequestedAt : s.createdAt).getTime();
    if (now - since >= allowed * 60_000) continue;
    const status = await rt.temporal.workflow
      .getHandle(s._id)
      .describe()
      .then((d) => d.status.name)
      .catch(() => 'NOT_FOUND');
    if (status === 'RUNNING') excused.add(s._id);
  }
  return excused;
}
