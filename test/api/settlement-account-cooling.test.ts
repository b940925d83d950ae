import { strict as assert } from 'node:assert';
import { settlementDateOfCapture } from '../../src/domain/settlement-calendar';
import { settlementCalendar } from '../../src/config-settlements';
import { SettlementAccountRepository } from '../../src/store/settlement-account-repository';
import { SettlementRepository } from '../../src/store/settlement-repository';
import { SETTLEMENT_WORKFLOW_TYPE, settlementWorkflowId, type SettlementWorkflow } from '../../src/temporal/settlement-contract';
import { settlementAccountUseCases } from '../../src/usecases/settlement-account';
import { settlementAccountDeps } from '../../src/main/use-cases/settlement-deps';
import { BREAK_GLASS_NAME } from '../../src/domain/operator-token';
import { RUN_MASTER_KEY, startTestGateway, type TestGateway } from '../support/gateway';
import { deliveryOutcome } from '../support/deliveries';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver } from '../support/receiver';

const FIRST = { ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Cooling Stores' };
const CHANGED = { ifsc: 'ICIC0004321', accountNumber: '60200098765432', holderName: 'Cooling Stores' };
const HOUR = 3_600_000;

/**
 * Payouts to a recently changed settlement bank account wait (held, `account_cooling`), through
 * the real settlement workflow and the bank simulator: never paid to the new account early, paid
 * once the cooling ends or an operator confirms the account early.
 */
describe('Settlement payouts to a changed bank account cool first', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let settlements: SettlementRepository;
  const auth = () => ({ authorization: `Bearer ${gw.rt.config.secrets.opsToken}` });
  const operator = (name: string) => ({ actor: { kind: 'operator' as const, name }, from: null });

  before(async () => {
    gw = await startTestGateway({}, { bank: 'simulator' });
    settlements = new SettlementRepository(gw.rt.store.db);
  });
  after(async () => gw?.stop());

  /** A merchant paid once, its first account set, then changed `ago` ms ago by two operators. */
  async function changedMerchant(ago: number) {
    const m = await gw.newMerchant('Cooling Stores');
    const mid = m.merchantIdentifier;
    await new SettlementAccountRepository(gw.rt.store.db, RUN_MASTER_KEY).set(mid, FIRST, {
      at: new Date(Date.now() - 30 * 24 * HOUR),
      by: 'test',
      coolingUntil: null,
    });
    const then = settlementAccountUseCases(settlementAccountDeps({ ...gw.rt, now: () => new Date(Date.now() - ago) }));
    const proposed = await then.propose(mid, CHANGED, operator('asha'));
    const named = { proposedAt: proposed!.pendingChange!.proposedAt, accountLast4: CHANGED.accountNumber.slice(-4) };
    const changed = await then.confirm(mid, named, operator('ravi'));
    assert.ok(typeof changed === 'object' && changed.settlementAccount?.coolingUntil, 'a replaced account cools');
    const orderId = newOrderId('cool');
    await sandboxPay(gw, { merchantIdentifier: mid, orderId, payerVpa: 'success@sandbox' });
    assert.equal((await paymentFinished(gw, mid, orderId)).status, 'Success');
    return mid;
  }

  const start = (merchantIdentifier: string) => {
    const settlementDate = settlementDateOfCapture(settlementCalendar(gw.rt.config.settlements), gw.rt.now());
    return gw.rt.temporal.workflow.start<SettlementWorkflow>(SETTLEMENT_WORKFLOW_TYPE, {
      workflowId: settlementWorkflowId(merchantIdentifier, settlementDate),
      taskQueue: gw.rt.config.temporal.taskQueue,
      args: [{ merchantIdentifier, settlementDate }],
    });
  };

  async function heldForCooling(id: string) {
    for (let i = 0; i < 200; i++) {
      const s = await settlements.find(id);
      if (s?.state === 'held' && s.heldReason === 'account_cooling') return s;
      assert.ok(!s || s.state === 'open' || s.state === 'held', `settlement ${id} went on to ${s?.state}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`settlement ${id} was not held for the account's cooling`);
  }

  it('an account changed 1 hour ago: the payout is held (needs attention: account_cooling), not paid; an early confirmation pays it', async () => {
    const mid = await changedMerchant(HOUR);
    const handle = await start(mid);
    const s = await heldForCooling(handle.workflowId);
    const until = s.coolingUntil!.getTime() - Date.now();
    assert.ok(until > 22 * HOUR && until < 23 * HOUR, `it waits about 23 more hours (${until} ms)`);
    assert.equal(gw.bank!.payouts.get(handle.workflowId), undefined, 'nothing was asked of the bank');

    const attention = await request(`${gw.baseUrl}/ops/v1/settlements/needs-attention`, { headers: auth() });
    const listed = attention.json.data.held.find((h: { _id: string }) => h._id === handle.workflowId);
    assert.equal(listed?.heldReason, 'account_cooling', attention.text.slice(0, 500));
    assert.equal(listed.state, 'held', 'held, never failed');

    const wrong = await request(`${gw.baseUrl}/ops/v1/merchants/${mid}/settlement-account/confirm-early`, {
      method: 'POST',
      headers: auth(),
      body: { accountLast4: '5678' },
    });
    assert.equal(wrong.status, 409, 'the old account is not the cooling one');
    const early = await request(`${gw.baseUrl}/ops/v1/merchants/${mid}/settlement-account/confirm-early`, {
      method: 'POST',
      headers: auth(),
      body: { accountLast4: '5432' },
    });
    assert.equal(early.status, 200, early.text);
    assert.equal(early.json.data.settlementAccount.coolingUntil, null);

    const result = await handle.result();
    assert.equal(result.state, 'paid');
    const atBank = gw.bank!.payouts.get(handle.workflowId)!;
    assert.equal(atBank.request.accountNumber, CHANGED.accountNumber, 'paid to the confirmed account');
    const audit = await request(`${gw.baseUrl}/ops/v1/audit?merchantIdentifier=${mid}`, { headers: auth() });
    const confirmed = audit.json.data.records.filter((r: { action: string }) => r.action === 'settlement_account.confirmed');
    assert.equal(confirmed.length, 1);
    assert.equal(confirmed[0].detail.accountLast4, '5432');
    assert.ok(!audit.text.includes(CHANGED.accountNumber), 'never the whole number');
  });

  it("the operator who proposed a change cannot end its cooling alone, nor can a legacy change's proposer", async () => {
    const early = (mid: string) =>
      request(`${gw.baseUrl}/ops/v1/merchants/${mid}/settlement-account/confirm-early`, {
        method: 'POST',
        headers: auth(),
        body: { accountLast4: '5432' },
      });
    const cooling = async (proposer: string) => {
      const mid = (await gw.newMerchant('Cooling Stores')).merchantIdentifier;
      const repo = new SettlementAccountRepository(gw.rt.store.db, RUN_MASTER_KEY);
      await repo.set(mid, FIRST, { at: new Date(Date.now() - 30 * 24 * HOUR), by: 'test', coolingUntil: null });
      const accounts = settlementAccountUseCases(settlementAccountDeps(gw.rt));
      const proposed = await accounts.propose(mid, CHANGED, operator(proposer));
      const named = { proposedAt: proposed!.pendingChange!.proposedAt, accountLast4: '5432' };
      assert.equal(typeof (await accounts.confirm(mid, named, operator('ravi'))), 'object');
      return mid;
    };
    // The ops token's operator as the proposer is refused, changing nothing.
    const own = await cooling(BREAK_GLASS_NAME);
    const refused = await early(own);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.json.message.code, '2068');
    const still = await request(`${gw.baseUrl}/ops/v1/merchants/${own}/settlement-account`, { headers: auth() });
    assert.ok(still.json.data.settlementAccount.coolingUntil, 'still cooling');
    const doc = await gw.rt.store.db.collection('merchants').findOne({ _id: own as never });
    assert.deepEqual(doc!.settlementAccount.proposedBy, { kind: 'operator', name: BREAK_GLASS_NAME }, 'the proposer is stored');

    // A change stored before the proposer was kept: its `changedBy` names the proposer first.
    const legacy = await cooling('asha');
    await gw.rt.store.db.collection('merchants').updateOne(
      { _id: legacy as never },
      {
        $set: { 'settlementAccount.changedBy': `operators ${BREAK_GLASS_NAME} + ravi` },
        $unset: { 'settlementAccount.proposedBy': '' },
      },
    );
    assert.equal((await early(legacy)).status, 409);

    // Any operator but the proposer may.
    const other = await cooling('asha');
    const ok = await early(other);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.json.data.settlementAccount.coolingUntil, null);
  });

  it('once the cooling ends the held payout goes on by itself and is paid to the new account', async () => {
    const mid = await changedMerchant(gw.rt.config.settlements.accountCoolingHours * HOUR - 4_000);
    const handle = await start(mid);
    await heldForCooling(handle.workflowId);
    assert.equal(gw.bank!.payouts.get(handle.workflowId), undefined);
    const result = await handle.result();
    assert.equal(result.state, 'paid');
    assert.equal(gw.bank!.payouts.get(handle.workflowId)!.request.accountNumber, CHANGED.accountNumber);
  });

  it('an account that cooled long ago is paid at once', async () => {
    const mid = await changedMerchant(25 * HOUR);
    const result = await (await start(mid)).result();
    assert.equal(result.state, 'paid');
  });

  it('a change sends account.changed to a merchant opted in to settlement webhooks (last four digits only); not to others', async () => {
    const receiver = await startReceiver();
    try {
      const optedIn = await gw.newMerchant('Told Stores');
      const silent = await gw.newMerchant('Untold Stores');
      for (const [m, on] of [
        [optedIn, true],
        [silent, false],
      ] as const) {
        const patched = await request(`${gw.baseUrl}/ops/v1/merchants/${m.merchantIdentifier}`, {
          method: 'PATCH',
          headers: auth(),
          body: { webhookUrl: `${receiver.url}/${m.merchantIdentifier}`, webhookFormat: 'json', settlementWebhook: on },
        });
        assert.equal(patched.status, 200, patched.text);
      }
      const accounts = settlementAccountUseCases(settlementAccountDeps(gw.rt));
      const email = 'owner@told.example';
      for (const m of [optedIn, silent]) {
        await accounts.changeByOwner(m.merchantIdentifier, FIRST, { actor: { kind: 'staff', email }, from: null });
        await accounts.changeByOwner(m.merchantIdentifier, CHANGED, { actor: { kind: 'staff', email }, from: null });
      }
      await receiver.received(2);
      const records = await gw.rt.store.db
        .collection('webhook_deliveries')
        .find({ merchantIdentifier: optedIn.merchantIdentifier })
        .toArray();
      assert.equal(records.length, 2, 'one delivery per change');
      for (const r of records) assert.equal((await deliveryOutcome(gw, String(r._id))).state, 'delivered');
      const events = receiver.calls
        .filter((c) => c.url.startsWith(`/hooks/payments/${optedIn.merchantIdentifier}?event=account.changed`))
        .map((c) => JSON.parse(JSON.parse(c.body).txnData));
      assert.equal(events.length, 2);
      const last = events.find((e) => e.accountLast4 === '5432')!;
      assert.equal(last.event, 'account.changed');
      assert.equal(last.previousAccountLast4, '5678');
      assert.equal(last.changedBy, `owner ${email}`);
      assert.ok(Date.parse(last.coolingUntil) > Date.now() + 23 * HOUR, 'the new account cools');
      assert.equal(events.find((e) => e.accountLast4 === '5678')!.coolingUntil, '', 'a first account does not');
      assert.ok(!receiver.calls.some((c) => c.body.includes(CHANGED.accountNumber)), 'never the whole number');
      assert.ok(
        !receiver.calls.some((c) => c.url.startsWith(`/hooks/payments/${silent.merchantIdentifier}`)),
        'not opted in: nothing sent',
      );
    } finally {
      await receiver.close();
    }
  });
});
