import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { contentDeliveryId } from '../../src/domain/webhook-id';
import { lateDeliveryId, type LateUpdate } from '../../src/domain/webhook-late';

describe('webhook delivery ids derived from content', () => {
  const update = (orderId: string, amountPaise = 1000): LateUpdate => ({
    kind: 'txn',
    orderId,
    amountPaise,
    at: '2026-11-26T08:00:00.000Z',
  });

  it('are 128 bits of SHA-256 over the identifying content, the same for the same updates', () => {
    const calls = [update('A'), update('B', 2000)];
    const id = lateDeliveryId('m1', calls);
    assert.match(id, /^nrt:m1:[0-9a-f]{32}$/);
    assert.equal(lateDeliveryId('m1', [update('A'), update('B', 2000)]), id, 'stable');
    const expected = createHash('sha256')
      .update(JSON.stringify(['m1', calls.map((u) => [u.kind, u.orderId, u.amountPaise, u.at])]))
      .digest('hex')
      .slice(0, 32);
    assert.equal(id, `nrt:m1:${expected}`, 'the pure-JavaScript hash is SHA-256');
  });

  it('differ for any difference in what the call carries, and separators cannot make two contents alike', () => {
    const ids = new Set([
      lateDeliveryId('m1', [update('A')]),
      lateDeliveryId('m2', [update('A')]),
      lateDeliveryId('m1', [update('A', 1001)]),
      lateDeliveryId('m1', [{ ...update('A'), kind: 'refund' }]),
      lateDeliveryId('m1', [update('A'), update('B')]),
      lateDeliveryId('m1', [update('B'), update('A')]),
      lateDeliveryId('m1', [update('A:B')]),
      contentDeliveryId('nrt', 'm1', ['a', 'b']),
      contentDeliveryId('nrt', 'm1', ['a,b']),
    ]);
    assert.equal(ids.size, 9);
  });
});
