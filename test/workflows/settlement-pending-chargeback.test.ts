import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { createSettlementActivities, type ClaimPageInput } from '../../activities/settlement-activities';
import type { BankPayoutAnswer, BankPayoutRequest, BankPayouts } from '../../src/bank/connector';
import { SandboxBankConnector } from '../../src/bank/sandbox-connector';
import { decideChargeback } from '../../src/domain/chargeback';
import { PayerDataCipher } from '../../src/domain/payer-data';
import type { SettlementLine } from '../../src/domain/settlement';
import { DEFAULT_FEE_PLAN } from '../../src/domain/settlement-fees';
import { MerchantRepository } from '../../src/store/merchant-repository';
import { connectStore, type Store } from '../../src/store/mongo';
import { PayoutAccountSeal } from '../../src/store/settlement-account-repository';
import { SettlementAttentionRepository } from '../../src/store/settlement-attention-repository';
import { SettlementClaimRepository } from '../../src/store/settlement-claim-repository';
import { SettlementRepository } from '../../src/store/settlement-repository';
import { SettlementSettingsRepository } from '../../src/store/settlement-settings-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import { settlementAttention } from '../../src/usecases/settlement-attention';
import {
  settlementStateQuery,
  settlementWorkflowId,
  type SettlementWorkflowResult,
} from '../../src/temporal/settlement-contract';
import { testStore, timeSkippingPerSuite, workflowBundle } from '../support/servers';
import { storedPaidUpiOrder } from '../support/stored-orders';
import { settlementRepositories } from '../../src/main/use-cases/settlement-deps';

const MASTER_KEY = 'b'.repeat(64);
const ACCOUNT = { ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Test Merchant' };
const ATTENTION = { settlements: { attentionOpenMinutes: 120, attentionPayoutMinutes: 1440, attentionHeldMinutes: 10080 } };

/**
 * A settlement whose previous settlement's payout is still PENDING at the bank, with a chargeback
 * recorded on the merchant's sales while its claim runs (one of the pending settlement's sales,
 * one of its own): it ends, each sale is claimed once, the chargebacks go to the next settlement,
 * and the pending one is listed by needs-attention once its payout's time is over, until the bank
 * pays it. Real activities on the real store and the time-skipping server; the clock the
 * activities and needs-attention read is the test's.
 */
describe('settlement after a PENDING payout, with chargebacks during its claim (time-skipping, real store)', function () {
  this.timeout(300_000);
  const env = timeSkippingPerSuite();
  const taskQueue = 'settlement-pending-chargeback-test';
  let store: Store;
  let transactions: TransactionRepository;
  let clock = new Date('2026-11-03T06:00:00Z');
  const now = () => clock;

  before(async () => {
    const s = await testStore();
    store = await connectStore(s.uri, `${s.dbName}_pending_cb_${Date.now().toString(36)}`);
    transactions = new TransactionRepository(store.db, MASTER_KEY);
  });
  after(async () => {
    await store?.db.dropDatabase().catch(() => undefined);
    await store?.close();
  });

  /** The sandbox bank, except that one payout stays PENDING until `paid` is set. */
  class Bank implements BankPayouts {
    readonly sandbox = new SandboxBankConnector();
    paid = false;
    constructor(private readonly pendingId: string) {}
    private pending(r: { payoutId: string }): BankPayoutAnswer | null {
      if (r.payoutId !== this.pendingId) return null;
      return this.paid
        ? { status: 'PAID', utr: 'UTR000000001', responseCode: '00', responseDescription: 'Paid' }
        : { status: 'PENDING', utr: null, responseCode: '09', responseDescription: 'Pending' };
    }
    async requestPayout(r: BankPayoutRequest) {
      return this.pending(r) ?? this.sandbox.requestPayout(r);
    }
    async inquirePayout(r: { payoutId: string }) {
      return this.pending(r) ?? this.sandbox.inquirePayout(r);
    }
    settlementFile(date: string) {
      return this.sandbox.settlementFile(date);
    }
  }

  /** A paid UPI order (no fee on the default plan), captured at `when`. */
  async function paid(merchantIdentifier: string, amountPaise: number, at: Date) {
    const orderId = `o-${randomBytes(6).toString('hex')}`;
    const order = storedPaidUpiOrder(new PayerDataCipher(MASTER_KEY), { merchantIdentifier, orderId, amountPaise, at });
    await store.db.collection('transactions').insertOne(order as never);
    return { merchantIdentifier, orderId };
  }

  /** A full chargeback raised now, written as the operator's chargeback is (applyChargeback: one compare-and-set). */
  async function chargeback(order: { merchantIdentifier: string; orderId: string }) {
    const t = (await transactions.findByOrder(order))!;
    const decision = decideChargeback(t, 'raise', t.amountPaise, now());
    assert.ok(decision.ok);
    const at = now();
    const updated = await transactions.updateIfUnchanged(order, t.version, {
      set: { status: decision.status, chargeback: decision.chargeback, updatedAt: at, adjustedAt: at },
    });
    assert.ok(updated, 'the chargeback applied');
  }

  it('ends paid, the chargebacks claimed by the next settlement, the pending one listed after its time until paid', async () => {
    const m = `m${randomBytes(8).toString('hex')}`;
    const [d1, d2, d3] = ['2026-11-03', '2026-11-04', '2026-11-05'];
    const [s1, s2, s3] = [d1, d2, d3].map((d) => settlementWorkflowId(m, d));
    const a = await paid(m, 10_000, new Date('2026-11-02T05:00:00Z'));
    await paid(m, 20_000, new Date('2026-11-02T06:00:00Z'));
    const c = await paid(m, 30_000, new Date('2026-11-03T05:00:00Z'));
    await paid(m, 40_000, new Date('2026-11-03T06:00:00Z'));

    const bank = new Bank(s1);
    const base = createSettlementActivities({
      settlementStore: new SettlementRepository(store.db),
      settlementAttention: new SettlementAttentionRepository(store.db),
      settlementClaims: new SettlementClaimRepository(store.db, transactions),
      settlementSettings: new SettlementSettingsRepository(store.db),
      payouts: bank,
      settlementAccount: async () => ACCOUNT,
      payoutAccountSeal: new PayoutAccountSeal(MASTER_KEY),
      merchants: new MerchantRepository(store.db, MASTER_KEY),
      settlementCalendar: { days: 1, holidays: new Set() },
      defaultFeePlan: DEFAULT_FEE_PLAN,
      now,
      temporal: env().client,
      taskQueue,
    });
    // The chargebacks land while the second settlement claims: one after its sales page (on a
    // sale of the pending settlement), one before its adjustments page (on a sale it just claimed).
    const landed: string[] = [];
    const activities = {
      ...base,
      async claimSettlementPage(input: ClaimPageInput) {
        const ours = input.settlementDate === d2 && input.cursor === null;
        if (ours && input.phase === 'adjustments' && !landed.includes('c')) {
          await chargeback(c);
          landed.push('c');
        }
        const page = await base.claimSettlementPage(input);
        if (ours && input.phase === 'sales' && !landed.includes('a')) {
          await chargeback(a);
          landed.push('a');
        }
        return page;
      },
    };
    const attention = settlementAttention({
      ...settlementRepositories(store.db),
      config: ATTENTION,
      temporal: env().client,
      now,
    });
    const listed = async () => (await attention.needsAttention()).unfinished.filter((u) => u.merchantIdentifier === m);
    const start = (date: string) =>
      env().client.workflow.start('settlementWorkflow', {
        workflowId: settlementWorkflowId(m, date),
        taskQueue,
        args: [{ merchantIdentifier: m, settlementDate: date }],
        workflowExecutionTimeout: '30 days',
      });

    const worker = await Worker.create({
      connection: env().nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities,
    });
    await worker.runUntil(async () => {
      const first = await start(d1);
      // Until the bank was asked (the stored state, not the workflow's: it names the step it is about to run).
      const deadline = Date.now() + 60_000;
      while (!(await store.db.collection('settlements').findOne({ _id: s1 as never, awaitingBankSince: { $exists: true } }))) {
        if (Date.now() > deadline) throw new Error('the first settlement never asked the bank');
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(await first.query(settlementStateQuery), 'payout_requested');

      clock = new Date('2026-11-04T04:00:00Z');
      const second = (await (await start(d2)).result()) as SettlementWorkflowResult;
      assert.deepEqual(landed, ['a', 'c'], 'both chargebacks landed during the claim');
      assert.deepEqual([second.state, second.netPaise], ['paid', 70_000]);
      assert.equal((await first.describe()).status.name, 'RUNNING');
      assert.equal((await store.db.collection('settlements').findOne({ _id: s1 as never }))?.state, 'payout_requested');

      // 22 hours after its payout was requested the pending settlement is within its time ...
      assert.deepEqual(await listed(), []);
      // ... and listed once the day is over, its workflow still running.
      clock = new Date('2026-11-04T06:00:01Z');
      assert.deepEqual(
        (await listed()).map((u) => [u._id, u.reason, u.workflow]),
        [[s1, 'payout_pending_too_long', 'RUNNING']],
      );

      // The next settlement takes the chargebacks (raised after the second one's window).
      clock = new Date('2026-11-05T04:00:00Z');
      const third = (await (await start(d3)).result()) as SettlementWorkflowResult;
      assert.deepEqual([third.state, third.netPaise], ['carried_forward', -40_000]);

      bank.paid = true;
      const firstResult = (await first.result()) as SettlementWorkflowResult;
      assert.deepEqual([firstResult.state, firstResult.netPaise, firstResult.utr], ['paid', 30_000, 'UTR000000001']);
      assert.deepEqual(await listed(), []);
    });

    // Every sale and chargeback settled once, in the settlement that claimed it.
    const lines = await store.db.collection<SettlementLine>('settlement_lines').find({ merchantIdentifier: m }).toArray();
    const by = (id: string) =>
      lines
        .filter((l) => l.settlementId === id)
        .map((l) => `${l.action}:${l.amountPaise}`)
        .sort();
    assert.equal(new Set(lines.map((l) => l._id)).size, lines.length);
    assert.deepEqual(by(s1), ['SALE:10000', 'SALE:20000']);
    assert.deepEqual(by(s2), ['SALE:30000', 'SALE:40000']);
    assert.deepEqual(by(s3), ['CHARGEBACK:10000', 'CHARGEBACK:30000']);
    const orders = await store.db.collection('transactions').find({ merchantIdentifier: m }).toArray();
    assert.deepEqual(orders.map((t) => t.saleSettlementId).sort(), [s1, s1, s2, s2]);
  });
});
