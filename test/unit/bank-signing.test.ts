import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { bankSignature, signBankRequest, verifyBankSignature } from '../../src/bank/signing';
import { FaultTable, faultRuleSchema } from '../../src/bank/simulator/faults';
import { bankCallbackSchema, paymentRequestSchema } from '../../src/bank/protocol';

const secret = 's'.repeat(40);
const now = new Date('2026-03-01T10:00:00Z');

describe('bank protocol: signatures', () => {
  const check = (headers: Record<string, string>, body: string, at = now) =>
    verifyBankSignature(secret, { timestamp: headers['x-bank-timestamp'], signature: headers['x-bank-signature'] }, body, at);

  it('is HMAC-SHA256 of "<timestamp>.<raw body>" in lowercase hex', () => {
    const expected = createHmac('sha256', secret).update('1772359200.{"a":1}').digest('hex');
    assert.equal(bankSignature(secret, '1772359200', '{"a":1}'), expected);
    assert.deepEqual(signBankRequest(secret, '{"a":1}', now), { 'x-bank-timestamp': '1772359200', 'x-bank-signature': expected });
  });

  it('accepts the exact bytes within five minutes either way', () => {
    const h = signBankRequest(secret, '{"a":1}', now);
    assert.deepEqual(check(h, '{"a":1}'), { ok: true });
    assert.deepEqual(check(h, '{"a":1}', new Date(now.getTime() + 300_000)), { ok: true });
    assert.deepEqual(check(h, '{"a":1}', new Date(now.getTime() - 300_000)), { ok: true });
  });

  it('refuses stale or future timestamps, other bytes, another secret, and missing or malformed headers', () => {
    const h = signBankRequest(secret, '{"a":1}', now);
    assert.deepEqual(check(h, '{"a":1}', new Date(now.getTime() + 301_000)), { ok: false, problem: 'stale' });
    assert.deepEqual(check(h, '{"a":1}', new Date(now.getTime() - 301_000)), { ok: false, problem: 'stale' });
    assert.deepEqual(check(h, '{"a": 1}'), { ok: false, problem: 'mismatch' }, 're-serialised JSON is other bytes');
    assert.deepEqual(check(signBankRequest('t'.repeat(40), '{"a":1}', now), '{"a":1}'), { ok: false, problem: 'mismatch' });
    assert.deepEqual(check({}, '{"a":1}'), { ok: false, problem: 'missing' });
    assert.deepEqual(check({ ...h, 'x-bank-signature': 'zz' }, '{"a":1}'), { ok: false, problem: 'malformed' });
    assert.deepEqual(check({ ...h, 'x-bank-timestamp': '12e9' }, '{"a":1}'), { ok: false, problem: 'malformed' });
  });
});

describe('bank protocol: schemas', () => {
  it('never carries a card number: a card instrument holds at most the masked card', () => {
    const base = { txnId: 'T1', merchantIdentifier: 'm', amountPaise: 1000, callbackUrl: 'http://127.0.0.1/cb' };
    assert.ok(paymentRequestSchema.safeParse({ ...base, instrument: { type: 'CARD', cardToken: '401200XXXXXX1112' } }).success);
    assert.equal(
      paymentRequestSchema.safeParse({ ...base, instrument: { type: 'CARD', cardToken: '4012001037141112' } }).success,
      false,
    );
    assert.equal(
      paymentRequestSchema.safeParse({ ...base, instrument: { type: 'CARD', cardNumber: '4012001037141112' } }).success,
      false,
    );
  });

  it('callbacks are one of payment, refund, mandate or debit, with nothing unknown', () => {
    const ok = { type: 'mandate', eventId: 'e1', mandateId: 'm:o', status: 'APPROVED' };
    assert.ok(bankCallbackSchema.safeParse(ok).success);
    assert.equal(bankCallbackSchema.safeParse({ ...ok, status: 'PENDING' }).success, false, 'callbacks carry final answers');
    assert.equal(bankCallbackSchema.safeParse({ ...ok, extra: 1 }).success, false);
  });
});

describe('bank simulator: fault rules', () => {
  it('apply by match, at most one of each kind per request, and are used up by times', () => {
    const table = new FaultTable();
    table.add(
      faultRuleSchema.parse({ match: { operation: 'payment', merchantIdentifier: 'a' }, fault: { kind: 'error' }, times: 1 }),
    );
    table.add(faultRuleSchema.parse({ match: { operation: 'payment' }, fault: { kind: 'error', afterCommit: true }, times: 1 }));
    table.add(faultRuleSchema.parse({ fault: { kind: 'latency', ms: 5 } }));
    const facts = { operation: 'payment' as const, merchantIdentifier: 'a', id: 'T1' };
    assert.deepEqual(table.take(facts), [
      { kind: 'error', status: 503, afterCommit: false },
      { kind: 'latency', ms: 5 },
    ]);
    assert.deepEqual(table.take(facts), [
      { kind: 'error', status: 503, afterCommit: true },
      { kind: 'latency', ms: 5 },
    ]);
    assert.deepEqual(table.take(facts), [{ kind: 'latency', ms: 5 }]);
    assert.deepEqual(table.take({ operation: 'refund', id: 'R1' }), [{ kind: 'latency', ms: 5 }]);
  });

  it('refuses unknown kinds and fields', () => {
    assert.equal(faultRuleSchema.safeParse({ fault: { kind: 'meteor' } }).success, false);
    assert.equal(faultRuleSchema.safeParse({ fault: { kind: 'silence' }, when: 'now' }).success, false);
  });
});
