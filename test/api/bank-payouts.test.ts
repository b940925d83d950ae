import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { ApplicationFailure } from '@temporalio/common';
import { HttpBankConnector } from '../../src/bank/http-connector';
import { faultRuleSchema } from '../../src/bank/simulator/faults';
import { startBankSimulator, type BankSimulator } from '../../src/bank/simulator/server';
import { istDate } from '../../src/domain/ist-time';
import { SETTLEMENT_FILE_MISSING } from '../../src/temporal/settlement-contract';

/**
 * Payouts over the acquirer protocol: the http connector (signed) against the bank simulator on
 * loopback. A payoutId is paid once whatever the repeats; faults refuse, hold or fail a payout on
 * demand; the settlement file lists what the bank paid that IST day.
 */
describe('Bank payouts: the http connector against the bank simulator', function () {
  this.timeout(60_000);
  let sim: BankSimulator;
  let bank: HttpBankConnector;
  const secret = randomBytes(32).toString('hex');
  const payout = (over: Record<string, unknown> = {}) => ({
    payoutId: `settlement:m${randomBytes(6).toString('hex')}:2026-11-03`,
    merchantIdentifier: 'merchant1',
    amountPaise: 987_654,
    ifsc: 'HDFC0001234',
    accountNumber: '50100012345678',
    ...over,
  });

  before(async () => {
    sim = await startBankSimulator({ secret });
    bank = new HttpBankConnector({ baseUrl: sim.url, secret, gatewayBaseUrl: 'http://127.0.0.1:1', callTimeoutMs: 2_000 });
  });
  after(() => sim?.close());
  afterEach(() => sim.faults.remove());

  it('pays with a UTR; a repeat of the payoutId answers the same payout; the day file lists it once', async () => {
    const p = payout();
    const first = await bank.requestPayout(p);
    assert.equal(first.status, 'PAID');
    assert.match(first.utr!, /^SIMU\d{12}$/);
    assert.deepEqual(await bank.requestPayout(p), first);
    assert.deepEqual(await bank.inquirePayout({ payoutId: p.payoutId }), first);
    assert.equal(sim.payouts.get(p.payoutId)!.requests, 2);
    const file = await bank.settlementFile(istDate(new Date()));
    assert.deepEqual(
      file.filter((l) => l.payoutId === p.payoutId),
      [{ payoutId: p.payoutId, merchantIdentifier: 'merchant1', amountPaise: 987_654, utr: first.utr }],
    );
    assert.deepEqual(await bank.settlementFile('2001-01-01'), []);
  });

  it('the same payoutId with another amount is refused (409): the gateway never pays a changed payout', async () => {
    const p = payout();
    await bank.requestPayout(p);
    await assert.rejects(bank.requestPayout({ ...p, amountPaise: 1 }), /refused the request with 409/);
  });

  it('refuses on demand (refusePayout 91) and an account starting 000; a refused payout is not in the file', async () => {
    const p = payout();
    sim.faults.add(
      faultRuleSchema.parse({ match: { operation: 'payout', id: p.payoutId }, fault: { kind: 'refusePayout', code: '91' } }),
    );
    const refused = await bank.requestPayout(p);
    assert.deepEqual([refused.status, refused.responseCode, refused.utr], ['REFUSED', '91', null]);
    const closed = await bank.requestPayout(payout({ accountNumber: '000123456789' }));
    assert.deepEqual([closed.status, closed.responseCode], ['REFUSED', '52']);
    const file = await bank.settlementFile(istDate(new Date()));
    assert.ok(!file.some((l) => l.payoutId === p.payoutId));
  });

  it('a late payout answers PENDING, then PAID when asked again; a 5xx is a retryable error', async () => {
    const p = payout();
    sim.faults.add(faultRuleSchema.parse({ match: { operation: 'payout', id: p.payoutId }, fault: { kind: 'late', ms: 200 } }));
    assert.equal((await bank.requestPayout(p)).status, 'PENDING');
    await new Promise((r) => setTimeout(r, 400));
    assert.equal((await bank.inquirePayout({ payoutId: p.payoutId }))!.status, 'PAID');
    const q = payout();
    sim.faults.add(
      faultRuleSchema.parse({ match: { operation: 'payout', id: q.payoutId }, fault: { kind: 'error', status: 503 }, times: 1 }),
    );
    await assert.rejects(bank.requestPayout(q), (e: Error) => e.name === 'BankCallError');
    assert.equal((await bank.requestPayout(q)).status, 'PAID', 'the retry pays');
    assert.equal(await bank.inquirePayout({ payoutId: 'settlement:nobody:2026-11-03' }), null);
  });

  it('refusePayout with afterMs answers PENDING, then REFUSED when asked again (PENDING then REFUSED)', async () => {
    const p = payout();
    sim.faults.add(
      faultRuleSchema.parse({
        match: { operation: 'payout', id: p.payoutId },
        fault: { kind: 'refusePayout', code: '91', afterMs: 200 },
      }),
    );
    assert.equal((await bank.requestPayout(p)).status, 'PENDING');
    await new Promise((r) => setTimeout(r, 400));
    const later = (await bank.inquirePayout({ payoutId: p.payoutId }))!;
    assert.deepEqual([later.status, later.responseCode, later.utr], ['REFUSED', '91', null]);
    assert.ok(!(await bank.settlementFile(istDate(new Date()))).some((l) => l.payoutId === p.payoutId));
  });

  it('badSettlementFile: a line with a field the protocol does not know is still read; missing is no file yet, never an empty one', async () => {
    const p = payout();
    await bank.requestPayout(p);
    const today = istDate(new Date());
    sim.faults.add(
      faultRuleSchema.parse({ match: { operation: 'settlementFile' }, fault: { kind: 'badSettlementFile' }, times: 1 }),
    );
    // A bank that adds a field to its lines must not stop the check: the fields used are still checked.
    assert.ok((await bank.settlementFile(today)).some((l) => l.payoutId === p.payoutId && !('valueDate' in l)));
    sim.faults.add(
      faultRuleSchema.parse({
        match: { operation: 'settlementFile' },
        fault: { kind: 'badSettlementFile', form: 'missing' },
        times: 1,
      }),
    );
    await assert.rejects(bank.settlementFile(today), (e: ApplicationFailure) => {
      assert.equal(e.type, SETTLEMENT_FILE_MISSING);
      assert.equal(e.nonRetryable, false, 'retried: the file may come later');
      return true;
    });
    assert.ok(
      (await bank.settlementFile(today)).some((l) => l.payoutId === p.payoutId),
      'the file again once the fault is spent',
    );
  });
});
