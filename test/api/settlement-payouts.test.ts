import { strict as assert } from 'node:assert';
import type { ActivityDeps } from '../../activities';
import { settlementDateOfCapture } from '../../src/domain/settlement-calendar';
import { bankConnector } from '../../src/main/runtime';
import { settlementCalendar } from '../../src/config-settlements';
import { SettlementAccountRepository } from '../../src/store/settlement-account-repository';
import { SettlementRepository } from '../../src/store/settlement-repository';
import {
  SETTLEMENT_WORKFLOW_TYPE,
  settlementWorkflowId,
  type SettlementWorkflow,
  type SettlementWorkflowResult,
} from '../../src/temporal/settlement-contract';
import { RUN_MASTER_KEY, startTestGateway, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';

const ACCOUNT = { ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Big Day Stores' };
const OTHER_ACCOUNT = { ifsc: 'ICIC0004321', accountNumber: '60200098765432', holderName: 'Big Day Stores' };
/** Rs 9,00,000: under the per-payment maximum; two of them net more than Rs 10,00,000. */
const NINE_LAKH = 90_000_000;

/**
 * Settlement payouts through the bank simulator over HTTP (the http connector, signed): a day
 * netting more than one payment's maximum is paid, and every attempt of a payout sends the account
 * stored on the settlement when it was first requested.
 */
describe('Settlement payouts through the bank simulator (http connector)', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let settlements: SettlementRepository;
  let accounts: SettlementAccountRepository;
  /** Merchants whose first payout call "crashes" after the bank answered, their account changed meanwhile. */
  const changeAccountAndCrash = new Set<string>();

  before(async () => {
    gw = await startTestGateway(
      {},
      {
        bank: 'simulator',
        activityDeps: (deps: ActivityDeps) => ({
          ...deps,
          payouts: {
            requestPayout: async (r) => {
              const answer = await deps.payouts.requestPayout(r);
              if (changeAccountAndCrash.delete(r.merchantIdentifier)) {
                await accounts.set(r.merchantIdentifier, OTHER_ACCOUNT, { at: new Date(), by: 'test', coolingUntil: null });
                throw new Error('worker died after the bank answered the payout');
              }
              return answer;
            },
            inquirePayout: (r) => deps.payouts.inquirePayout(r),
            settlementFile: (d) => deps.payouts.settlementFile(d),
          },
        }),
      },
    );
    settlements = new SettlementRepository(gw.rt.store.db);
    accounts = new SettlementAccountRepository(gw.rt.store.db, RUN_MASTER_KEY);
  });
  after(async () => gw?.stop());

  async function paidMerchant(amounts: number[]) {
    const m = await gw.newMerchant('Big Day Stores');
    await accounts.set(m.merchantIdentifier, ACCOUNT, { at: new Date(), by: 'test', coolingUntil: null });
    for (const amount of amounts) {
      const orderId = newOrderId('big');
      const paid = await sandboxPay(gw, {
        merchantIdentifier: m.merchantIdentifier,
        orderId,
        amount,
        payerVpa: 'success@sandbox',
      });
      assert.ok(paid.status === 200 || paid.status === 202, paid.text);
      assert.equal((await paymentFinished(gw, m.merchantIdentifier, orderId)).status, 'Success');
    }
    return m.merchantIdentifier;
  }

  const settle = (merchantIdentifier: string): Promise<SettlementWorkflowResult> => {
    const date = settlementDateOfCapture(settlementCalendar(gw.rt.config.settlements), gw.rt.now());
    return gw.rt.temporal.workflow.execute<SettlementWorkflow>(SETTLEMENT_WORKFLOW_TYPE, {
      workflowId: settlementWorkflowId(merchantIdentifier, date),
      taskQueue: gw.rt.config.temporal.taskQueue,
      args: [{ merchantIdentifier, settlementDate: date }],
    });
  };

  it('a merchant paid two Rs 9 lakh orders is paid its net (over Rs 10 lakh) in one payout, with a UTR', async () => {
    const m = await paidMerchant([NINE_LAKH, NINE_LAKH]);
    const result = await settle(m);
    assert.equal(result.state, 'paid');
    const s = (await settlements.find(result.settlementId))!;
    assert.equal(s.grossPaise, 2 * NINE_LAKH);
    assert.ok(s.netPaise > 100_000_000, `the net ${s.netPaise} is over Rs 10 lakh`);
    assert.equal(s.netPaise, 2 * NINE_LAKH - s.feePaise - s.taxPaise);
    const atBank = gw.bank!.payouts.get(result.settlementId)!;
    assert.equal(atBank.request.amountPaise, s.netPaise, 'the bank paid the whole net');
    assert.equal(atBank.answer.status, 'PAID');
    assert.equal(s.utr, atBank.answer.utr);
    const lines = await gw.rt.store.db.collection('settlement_lines').find({ settlementId: result.settlementId }).toArray();
    assert.deepEqual(
      lines.map((l) => [l.action, l.utr]),
      [
        ['SALE', undefined],
        ['SALE', undefined],
      ],
      'the UTR is on the settlement only',
    );
    // The bank's settlement file carries the sum too, and parses.
    const file = await bankConnector(gw.rt.config).settlementFile(atBank.paidOn!);
    assert.deepEqual(
      file.filter((l) => l.payoutId === result.settlementId).map((l) => l.amountPaise),
      [s.netPaise],
    );
  });

  it('an account changed after the bank answered: the retried payout sends the stored account, paid once', async () => {
    const m = await paidMerchant([10_000]);
    changeAccountAndCrash.add(m);
    const result = await settle(m);
    assert.equal(result.state, 'paid', 'the retry is the same payout (no 409, no failed workflow)');
    const atBank = gw.bank!.payouts.get(result.settlementId)!;
    assert.equal(atBank.requests, 2, 'asked twice, the same payout');
    assert.equal(atBank.request.accountNumber, ACCOUNT.accountNumber);
    const s = (await settlements.find(result.settlementId))!;
    assert.deepEqual([s.ifsc, s.accountLast4], [ACCOUNT.ifsc, '5678']);
    assert.match(s.payoutAccount!.accountNumberSealed, /^pd1\./, 'the stored account is sealed');
    assert.ok(!JSON.stringify(s).includes(ACCOUNT.accountNumber), 'never in clear');
    assert.ok(s.payoutRequestedAt instanceof Date && s.awaitingBankSince instanceof Date);
  });
});
