import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { createSettlementActivities } from '../../activities/settlement-activities';
import { createSettlementFileActivities } from '../../activities/settlement-file-activities';
import type { BankPayoutLine, BankPayouts } from '../../src/bank/connector';
import { HttpBankConnector } from '../../src/bank/http-connector';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { faultRuleSchema } from '../../src/bank/simulator/faults';
import { startBankSimulator } from '../../src/bank/simulator/server';
import { settlementFileSchema } from '../../src/bank/protocol';
import { istDate } from '../../src/domain/ist-time';
import { addDays } from '../../src/domain/settlement-calendar';
import { DEFAULT_FEE_PLAN } from '../../src/domain/settlement-fees';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { connectStore, type Store } from '../../src/store/mongo';
import { PayoutAccountSeal } from '../../src/store/settlement-account-repository';
import { SettlementAttentionRepository } from '../../src/store/settlement-attention-repository';
import { SettlementClaimRepository } from '../../src/store/settlement-claim-repository';
import { SettlementRepository } from '../../src/store/settlement-repository';
import { SettlementSettingsRepository } from '../../src/store/settlement-settings-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { settlementWorkflowId } from '../../src/temporal/settlement-contract';
import { settlementAttention } from '../../src/usecases/settlement-attention';
import { testStore, timeSkippingPerSuite, workflowBundle } from '../support/servers';
import { settlementRepositories } from '../../src/main/use-cases/settlement-deps';

const MASTER_KEY = 'b'.repeat(64);

/** The sandbox bank, whose settlement file is whatever the test says (or fails, as a bad file does). */
class FileBank implements BankPayouts {
  readonly sandbox = new SandboxBankConnector();
  file: BankPayoutLine[] | Error = [];
  reads = 0;
  requestPayout(r: Parameters<BankPayouts['requestPayout']>[0]) {
    return this.sandbox.requestPayout(r);
  }
  inquirePayout(r: { payoutId: string }) {
    return this.sandbox.inquirePayout(r);
  }
  async settlementFile(): Promise<BankPayoutLine[]> {
    this.reads++;
    if (this.file instanceof Error) throw this.file;
    return this.file;
  }
}

/**
 * The bank's settlement file on its own (workflows/settlement-file.ts) on the time-skipping server
 * with the real activities against the real store: a bad file is retried a bounded number of
 * times and recorded, never holding up the daily run; files are compared by payout date.
 */
describe('bank settlement file workflow (time-skipping, real store)', function () {
  this.timeout(120_000);
  const env = timeSkippingPerSuite();
  const taskQueue = 'settlement-file-test';
  let store: Store;
  let settlements: SettlementRepository;

  before(async () => {
    const s = await testStore();
    store = await connectStore(s.uri, `${s.dbName}_settlement_file_${Date.now().toString(36)}`);
    settlements = new SettlementRepository(store.db);
  });
  after(async () => {
    await store?.db.dropDatabase();
    await store?.close();
  });

  function activitiesWith(bank: BankPayouts) {
    const deps = {
      settlementStore: settlements,
      settlementAttention: new SettlementAttentionRepository(store.db),
      settlementClaims: new SettlementClaimRepository(store.db, new TransactionRepository(store.db, MASTER_KEY)),
      settlementSettings: new SettlementSettingsRepository(store.db),
      payouts: bank,
      settlementAccount: async () => ({ ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Test' }),
      payoutAccountSeal: new PayoutAccountSeal(MASTER_KEY),
      merchants: new MerchantRepository(store.db, MASTER_KEY),
      settlementCalendar: { days: 1, holidays: new Set<string>() },
      defaultFeePlan: DEFAULT_FEE_PLAN,
      now: () => new Date(),
      temporal: env().client,
      taskQueue,
    };
    return { ...createSettlementActivities(deps), ...createSettlementFileActivities(deps) };
  }

  const run = async <T>(bank: BankPayouts, workflow: string, args: unknown[], then?: (r: T) => Promise<void>) => {
    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: activitiesWith(bank),
    });
    return worker.runUntil(async () => {
      const r = (await env().client.workflow.execute(workflow, {
        workflowId: `${workflow}:${randomBytes(4).toString('hex')}`,
        taskQueue,
        args,
      })) as T;
      await then?.(r);
      return r;
    });
  };

  const attentionOps = () =>
    settlementAttention({
      ...settlementRepositories(store.db),
      config: { settlements: { attentionOpenMinutes: 120, attentionPayoutMinutes: 1440, attentionHeldMinutes: 10080 } },
      temporal: env().client,
      now: () => new Date(),
    });

  it("a bank file that cannot be read does not hold up the daily run: the merchants' settlements start and pay", async () => {
    const m = `m${randomBytes(8).toString('hex')}`;
    await store.db.collection('transactions').insertOne({
      _id: `${m}:o1` as never,
      txnId: `T${randomBytes(8).toString('hex')}`,
      merchantIdentifier: m,
      orderId: 'o1',
      amountPaise: 10_000,
      instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox' },
      status: 'Success',
      createdAt: new Date('2026-11-23T05:00:00Z'),
      updatedAt: new Date('2026-11-23T05:00:00Z'),
      successAt: new Date('2026-11-23T05:00:00Z'),
      refunds: [],
      version: 1,
    });
    await store.db.collection<{ _id: string }>('merchants').insertOne({ _id: m });
    const bank = new FileBank();
    bank.file = new Error("the bank's file does not match the protocol");
    const day = await run<{ started: number }>(bank, 'settlementDayWorkflow', [{ settlementDate: '2026-11-24' }], async () => {
      await env().client.workflow.getHandle(settlementWorkflowId(m, '2026-11-24')).result();
    });
    assert.ok(day.started >= 1);
    assert.equal((await settlements.find(settlementWorkflowId(m, '2026-11-24')))?.state, 'paid');
    assert.equal(bank.reads, 0, 'the daily run no longer reads the file');
  });

  it('a file that fails every attempt is recorded as failed after bounded retries and listed; a good one clears it', async () => {
    const bank = new FileBank();
    bank.file = new Error('garbled');
    const failed = await run<{ failed?: string }>(bank, 'settlementFileWorkflow', [{ date: '2026-10-03' }]);
    assert.match(failed.failed ?? '', /garbled/);
    assert.ok(bank.reads > 1 && bank.reads <= 10, `bounded attempts (${bank.reads})`);
    const ops = attentionOps();
    const listed = (await ops.needsAttention()).bankFileFailures.find((f) => f._id === '2026-10-03');
    assert.equal(listed?.reason, 'file_unreadable');
    assert.match(listed?.detail ?? '', /garbled/);
    assert.ok((await ops.counts()).bank_file_failed >= 1);
    bank.file = [];
    await run(bank, 'settlementFileWorkflow', [{ date: '2026-10-03' }]);
    assert.ok(!(await ops.needsAttention()).bankFileFailures.some((f) => f._id === '2026-10-03'));
  });

  it('a file the bank does not have (404) is no file yet, never an empty one: retried, then listed as file_missing', async () => {
    const secret = randomBytes(32).toString('hex');
    const sim = await startBankSimulator({ secret });
    try {
      const http = new HttpBankConnector({
        baseUrl: sim.url,
        secret,
        gatewayBaseUrl: 'http://127.0.0.1:1',
        callTimeoutMs: 2_000,
      });
      let reads = 0;
      const bank: BankPayouts = {
        requestPayout: (r) => http.requestPayout(r),
        inquirePayout: (r) => http.inquirePayout(r),
        settlementFile: (d) => (reads++, http.settlementFile(d)),
      };
      // A settlement recorded paid that date: read as an empty file, it would be a false difference.
      const m = `m${randomBytes(8).toString('hex')}`;
      const paid = settlementWorkflowId(m, '2026-10-05');
      await store.db.collection('settlements').insertOne({
        _id: paid as never,
        merchantIdentifier: m,
        settlementDate: '2026-10-05',
        state: 'paid',
        utr: 'UTR-P',
        netPaise: 5_000,
        paidAt: new Date('2026-10-06T06:00:00Z'),
        createdAt: new Date(),
      });
      sim.faults.add(
        faultRuleSchema.parse({
          match: { operation: 'settlementFile', id: '2026-10-06' },
          fault: { kind: 'badSettlementFile', form: 'missing' },
        }),
      );
      const failed = await run<{ failed?: string }>(bank, 'settlementFileWorkflow', [{ date: '2026-10-06' }]);
      assert.match(failed.failed ?? '', /no settlement file/);
      assert.ok(reads > 1 && reads <= 10, `bounded attempts (${reads})`);
      const listed = (await attentionOps().needsAttention()).bankFileFailures.find((f) => f._id === '2026-10-06');
      assert.equal(listed?.reason, 'file_missing');
      assert.deepEqual(await settlements.differencesOn('2026-10-06', 100), [], 'nothing compared with an empty file');
      sim.faults.remove();
      await run(bank, 'settlementFileWorkflow', [{ date: '2026-10-06' }]);
      assert.ok(!(await attentionOps().needsAttention()).bankFileFailures.some((f) => f._id === '2026-10-06'));
    } finally {
      await sim.close();
    }
  });

  it('compares by payout date; a payout the bank paid while the gateway waits for its answer is a difference', async () => {
    const m = `m${randomBytes(8).toString('hex')}`;
    const base = { merchantIdentifier: m, lineCount: 1, netPaise: 5_000, carriedOutPaise: 0, createdAt: new Date() };
    // Settled Friday, paid on Saturday (late): Saturday's file lists it, Friday's does not.
    const late = settlementWorkflowId(m, '2026-10-09');
    const waiting = settlementWorkflowId(m, '2026-10-08');
    await store.db.collection('settlements').insertMany([
      {
        ...base,
        _id: late as never,
        settlementDate: '2026-10-09',
        state: 'paid',
        utr: 'UTR1',
        paidAt: new Date('2026-10-10T06:00:00Z'),
      },
      { ...base, _id: waiting as never, settlementDate: '2026-10-08', state: 'payout_requested' },
    ]);
    const bank = new FileBank();
    const line = (payoutId: string, utr: string) => ({ payoutId, merchantIdentifier: m, amountPaise: 5_000, utr });
    bank.file = [];
    await run(bank, 'settlementFileWorkflow', [{ date: '2026-10-09' }]);
    assert.deepEqual(await settlements.differencesOn('2026-10-09', 100), [], 'not paid on the 9th: nothing missing');
    bank.file = [line(late, 'UTR1'), line(waiting, 'UTR2')];
    await run(bank, 'settlementFileWorkflow', [{ date: '2026-10-10' }]);
    const found = await settlements.differencesOn('2026-10-10', 100);
    assert.deepEqual(
      found.map((d) => [d.payoutId, d.kind]),
      [[waiting, 'paid_at_bank_not_recorded']],
    );
  });

  it('a payout the bank paid before the gateway recorded it stops being listed once recorded paid; the difference is kept, resolved', async () => {
    const m = `m${randomBytes(8).toString('hex')}`;
    const today = istDate(new Date());
    const [paidDay, recordedDay] = [addDays(today, -2), addDays(today, -1)];
    const same = settlementWorkflowId(m, addDays(today, -4));
    const other = settlementWorkflowId(m, addDays(today, -3));
    const base = { merchantIdentifier: m, lineCount: 1, netPaise: 5_000, carriedOutPaise: 0, createdAt: new Date() };
    await store.db.collection('settlements').insertMany([
      { ...base, _id: same as never, settlementDate: addDays(today, -4), state: 'payout_requested' },
      { ...base, _id: other as never, settlementDate: addDays(today, -3), state: 'payout_requested' },
    ]);
    const bank = new FileBank();
    const line = (payoutId: string, utr: string) => ({ payoutId, merchantIdentifier: m, amountPaise: 5_000, utr });
    bank.file = [line(same, 'UTR-S'), line(other, 'UTR-O')];
    await run(bank, 'settlementFileWorkflow', [{ date: paidDay }]);
    const listed = async () =>
      (await attentionOps().needsAttention()).differences
        .filter((d) => d.merchantIdentifier === m)
        .map((d) => [d.payoutId, d.kind]);
    assert.deepEqual(
      (await listed()).sort(),
      [
        [same, 'paid_at_bank_not_recorded'],
        [other, 'paid_at_bank_not_recorded'],
      ].sort(),
    );
    // The gateway hears from the bank the next day: one with the bank's UTR, one with another.
    const paidAt = new Date(`${recordedDay}T06:00:00Z`);
    await store.db.collection('settlements').updateOne({ _id: same as never }, { $set: { state: 'paid', utr: 'UTR-S', paidAt } });
    await store.db
      .collection('settlements')
      .updateOne({ _id: other as never }, { $set: { state: 'paid', utr: 'UTR-X', paidAt } });
    assert.deepEqual(await listed(), [[other, 'utr_differs']], 'listed no more once recorded paid as the bank paid it');
    const kept = await settlements.differencesOn(paidDay, 100);
    const of = (id: string, kind: string) => kept.find((d) => d.payoutId === id && d.kind === kind);
    assert.equal(of(same, 'paid_at_bank_not_recorded')?.resolution, 'recorded_paid');
    assert.ok(of(same, 'paid_at_bank_not_recorded')?.resolvedAt instanceof Date);
    assert.equal(of(other, 'paid_at_bank_not_recorded')?.resolution, 'recorded_paid_differently');
    assert.deepEqual(of(other, 'utr_differs')?.bank, { amountPaise: 5_000, utr: 'UTR-O' });
    // The file of the day it was recorded does not list it (the bank paid it the day before): not missing.
    bank.file = [];
    await run(bank, 'settlementFileWorkflow', [{ date: recordedDay }]);
    assert.deepEqual(
      (await settlements.differencesOn(recordedDay, 100)).filter((d) => d.merchantIdentifier === m),
      [],
      'not missing at the bank',
    );
  });

  it('records each kind of difference once across repeated checks, never touching a settlement', async () => {
    const m = `m${randomBytes(8).toString('hex')}`;
    const id = (day: string) => settlementWorkflowId(m, day);
    const paidOn = { state: 'paid', paidAt: new Date('2026-09-15T06:00:00Z') };
    const base = { merchantIdentifier: m, lineCount: 1, netPaise: 5_000, carriedOutPaise: 0, createdAt: new Date() };
    const [missing, amount, utr, waiting, same] = ['09-10', '09-11', '09-12', '09-13', '09-14'].map((d) => id(`2026-${d}`));
    const unknown = `${m}:not-ours`;
    await store.db.collection('settlements').insertMany([
      { ...base, ...paidOn, _id: missing as never, settlementDate: '2026-09-10', utr: 'UTR-M' },
      { ...base, ...paidOn, _id: amount as never, settlementDate: '2026-09-11', utr: 'UTR-A' },
      { ...base, ...paidOn, _id: utr as never, settlementDate: '2026-09-12', utr: 'UTR-U' },
      { ...base, _id: waiting as never, settlementDate: '2026-09-13', state: 'payout_requested' },
      { ...base, ...paidOn, _id: same as never, settlementDate: '2026-09-14', utr: 'UTR-S' },
    ]);
    const before = await store.db.collection('settlements').find({ merchantIdentifier: m }).sort({ _id: 1 }).toArray();
    const bank = new FileBank();
    const line = (payoutId: string, amountPaise: number, u: string) => ({ payoutId, merchantIdentifier: m, amountPaise, utr: u });
    bank.file = [
      line(amount, 4_000, 'UTR-A'),
      line(utr, 5_000, 'UTR-OTHER'),
      line(waiting, 5_000, 'UTR-W'),
      line(same, 5_000, 'UTR-S'),
      line(unknown, 700, 'UTR-X'),
    ];
    const activities = activitiesWith(bank);
    const first = await activities.reconcileSettlementFile({ date: '2026-09-15' });
    assert.deepEqual(first, { payouts: 5, differences: 5 });
    for (let i = 0; i < 2; i++) {
      const again = await activities.reconcileSettlementFile({ date: '2026-09-15' });
      assert.equal(again.differences, 0, 'a difference found again is not recorded again');
    }
    const found = (await settlements.differencesOn('2026-09-15', 1000)).filter((d) => d.merchantIdentifier === m);
    assert.deepEqual(
      found.map((d) => [d.payoutId, d.kind, d.gateway?.amountPaise ?? null, d.gateway?.utr ?? null, d.bank]).sort(),
      [
        [missing, 'missing_at_bank', 5_000, 'UTR-M', null],
        [amount, 'amount_differs', 5_000, 'UTR-A', { amountPaise: 4_000, utr: 'UTR-A' }],
        [utr, 'utr_differs', 5_000, 'UTR-U', { amountPaise: 5_000, utr: 'UTR-OTHER' }],
        [waiting, 'paid_at_bank_not_recorded', 5_000, null, { amountPaise: 5_000, utr: 'UTR-W' }],
        [unknown, 'unknown_to_gateway', null, null, { amountPaise: 700, utr: 'UTR-X' }],
      ].sort(),
    );
    const after = await store.db.collection('settlements').find({ merchantIdentifier: m }).sort({ _id: 1 }).toArray();
    assert.deepEqual(after, before, 'no settlement is written over');
  });

  it('reads a file with fields it does not know; refuses one without a field it uses', () => {
    const file = {
      date: '2026-10-10',
      payouts: [{ payoutId: 'p1', merchantIdentifier: 'm1', amountPaise: 100, utr: 'U1', channel: 'NEFT' }],
      generatedAt: '2026-10-11T00:00:00Z',
    };
    assert.equal(settlementFileSchema.parse(file).payouts[0]!.payoutId, 'p1');
    const { utr: _utr, ...noUtr } = file.payouts[0]!;
    assert.equal(settlementFileSchema.safeParse({ ...file, payouts: [noUtr] }).success, false);
  });
});
