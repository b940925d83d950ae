import { strict as assert } from 'node:assert';
import { unfinishedReason, type AttentionThresholds } from '../../src/domain/settlement-attention';

const t: AttentionThresholds = { openMs: 2 * 3_600_000, heldMs: 7 * 86_400_000, payoutMs: 86_400_000 };
const now = new Date('2026-11-24T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

/** Why an unfinished settlement is listed: its workflow ended, or its state lasted past its time. */
describe('settlement needs attention: reasons', () => {
  it('a workflow that ended without finishing the settlement is the reason, whatever the time', () => {
    const s = { state: 'open' as const, createdAt: ago(60_000) };
    assert.equal(unfinishedReason(s, 'FAILED', now, t), 'workflow_failed');
    assert.equal(unfinishedReason(s, 'TERMINATED', now, t), 'workflow_terminated');
    assert.equal(unfinishedReason(s, 'TIMED_OUT', now, t), 'workflow_timed_out');
    assert.equal(unfinishedReason(s, null, now, t), 'workflow_not_running');
    assert.equal(unfinishedReason(s, 'COMPLETED', now, t), 'workflow_not_running');
  });

  it('a running settlement is listed once its state lasted longer than its threshold', () => {
    assert.equal(unfinishedReason({ state: 'open', createdAt: ago(t.openMs - 1) }, 'RUNNING', now, t), null);
    assert.equal(unfinishedReason({ state: 'open', createdAt: ago(t.openMs) }, 'RUNNING', now, t), 'open_too_long');
    assert.equal(unfinishedReason({ state: 'held', createdAt: ago(t.openMs) }, 'RUNNING', now, t), null);
    assert.equal(unfinishedReason({ state: 'held', createdAt: ago(t.heldMs) }, 'RUNNING', now, t), 'held_too_long');
  });

  it('a payout awaiting the bank counts from when it was requested (its creation when that is unknown)', () => {
    const old = ago(3 * t.payoutMs);
    assert.equal(
      unfinishedReason({ state: 'payout_requested', createdAt: old, payoutRequestedAt: ago(60_000) }, 'RUNNING', now, t),
      null,
    );
    assert.equal(
      unfinishedReason({ state: 'payout_requested', createdAt: old, payoutRequestedAt: ago(t.payoutMs) }, 'RUNNING', now, t),
      'payout_pending_too_long',
    );
    assert.equal(unfinishedReason({ state: 'payout_requested', createdAt: old }, 'RUNNING', now, t), 'payout_pending_too_long');
  });
});
