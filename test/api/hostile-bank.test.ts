import { strict as assert } from 'node:assert';
import { BankConductTable } from '../../src/bank/simulator/conduct';
import type { BankSimulator } from '../../src/bank/simulator/server';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { createQr } from '../support/qr';

/**
 * A bank that behaves like a bank (docs/testers/bank-simulator.md): each conduct a payer's test VPA
 * asks for, as the simulator's books and the gateway show it, and the seeded random source.
 * The gateway's bank timeout is the test harness's 2 seconds.
 */
describe('Hostile bank: the conducts of the bank simulator and the in-process sandbox', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let sandbox: TestGateway;
  let sim: BankSimulator;
  let merchant: MerchantCredentials;
  let m: string;

  before(async () => {
    gw = await startTestGateway({}, { bank: 'simulator' });
    sandbox = await startTestGateway({}, { bank: 'sandbox' });
    sim = gw.bank!;
  });
  beforeEach(async () => {
    merchant = await gw.newMerchant('Hostile Bank Merchant');
    m = merchant.merchantIdentifier;
  });

  async function pay(on: TestGateway, payerVpa: string, merchantIdentifier = m) {
    const orderId = newOrderId();
    const res = await sandboxPay(on, { merchantIdentifier, orderId, payerVpa });
    assert.equal(res.status, 202, res.text);
    await paymentFinished(on, merchantIdentifier, orderId);
    return (await storedTransaction(on, merchantIdentifier, orderId))!;
  }
  const atBank = (txnId: string) => sim.books.payments.get(txnId)!;
  const callbacksOf = (txnId: string) =>
    sim.books.callbacks.filter((c) => c.callback.type === 'payment' && c.callback.txnId === txnId);

  it('slow@sandbox: PENDING, then the approval by callback a second later, inside the deadline', async () => {
    const t = await pay(gw, 'slow@sandbox');
    assert.equal(t.status, 'Success');
    assert.deepEqual(
      callbacksOf(t.txnId).map((c) => [c.reason, c.state]),
      [['final', 'delivered']],
    );
    assert.equal(atBank(t.txnId).inquiries, 0);
  });

  it('twice@sandbox: the approval twice, reordered, then a stale decline: the first word stands', async () => {
    const t = await pay(gw, 'twice@sandbox');
    await sim.idle();
    assert.equal(t.status, 'Success');
    const sent = callbacksOf(t.txnId);
    assert.deepEqual(sent.map((c) => c.reason).sort(), ['duplicate', 'final', 'outOfOrder']);
    assert.equal((await storedTransaction(gw, m, t.orderId))!.status, 'Success', 'the stale decline changed nothing');
  });

  it('inquirypending@sandbox: the bank approved, lost its answer and said PENDING to the one inquiry', async () => {
    const t = await pay(gw, 'inquirypending@sandbox');
    assert.equal(atBank(t.txnId).answer.status, 'APPROVED');
    assert.equal(atBank(t.txnId).inquiries, 1);
    assert.deepEqual(callbacksOf(t.txnId), []);
    assert.equal(t.status, 'Failure', 'only the bank file (or a second inquiry) can tell the gateway');
    assert.equal(t.responseCode, '1023');
  });

  it('late@sandbox: undecided until the deadline inquiry, answered PENDING, approved right after by callback', async () => {
    const orderId = newOrderId();
    const res = await sandboxPay(gw, { merchantIdentifier: m, orderId, payerVpa: 'late@sandbox' });
    const txnId = res.json.data.txnId as string;
    await paymentFinished(gw, m, orderId);
    await sim.idle();
    assert.equal(atBank(txnId).inquiries, 1);
    assert.equal(atBank(txnId).answer.status, 'APPROVED');
    assert.deepEqual(
      callbacksOf(txnId).map((c) => [c.reason, c.callback.type === 'payment' && c.callback.status]),
      [['final', 'APPROVED']],
    );
  });

  it('a payer pays the QR intent in their own app: the bank books it and calls back, and the QR is paid', async () => {
    const orderId = newOrderId('qr');
    const qr = await createQr(gw, merchant, { orderId });
    assert.equal(qr.status, 200, qr.text);
    const t = (await storedTransaction(gw, m, orderId))!;
    const paid = await request(`${sim.url}/admin/intents/pay`, {
      headers: { authorization: `Bearer ${sim.adminToken}` },
      body: {
        txnId: t.txnId,
        merchantIdentifier: m,
        orderId,
        amountPaise: t.amountPaise,
        callbackUrl: `${gw.rt.config.http.publicBaseUrl}/bank/v1/callbacks`,
        qr: true,
      },
    });
    assert.equal(paid.status, 201, paid.text);
    await sim.idle();
    assert.equal(atBank(t.txnId).answer.status, 'APPROVED');
    assert.deepEqual(
      callbacksOf(t.txnId).map((c) => c.state),
      ['delivered'],
    );
    await paymentFinished(gw, m, orderId);
    assert.equal((await storedTransaction(gw, m, orderId))!.status, 'Success');
  });

  it('the in-process sandbox plays slow@sandbox and inquirypending@sandbox without callbacks', async () => {
    const own = (await sandbox.newMerchant('Sandbox Conducts')).merchantIdentifier;
    const started = Date.now();
    const slow = await pay(sandbox, 'slow@sandbox', own);
    assert.equal(slow.status, 'Success');
    assert.ok(Date.now() - started >= 1000, 'answered a second late');
    const hidden = await pay(sandbox, 'inquirypending@sandbox', own);
    assert.equal(hidden.responseCode, '1023', 'its one inquiry was answered PENDING');
  });

  it('one seed, one bank: the random conducts and shares repeat with the seed', () => {
    const draw = (seed: number) => {
      const table = new BankConductTable({ seed, share: 0.5 });
      return Array.from(
        { length: 20 },
        (_, i) =>
          table.conductOf(`t${i}`) ??
          (table.faultsFor(`t${i}`, { type: 'UPI_COLLECT', vpa: 'success@sandbox' }), table.conductOf(`t${i}`)) ??
          '-',
      );
    };
    assert.deepEqual(draw(42), draw(42));
    assert.notDeepEqual(draw(42), draw(43));
    assert.ok(draw(42).some((c) => c !== '-') && draw(42).some((c) => c === '-'), 'about half the payments meet a conduct');
  });

  it('PUT /admin/conduct sets the seed and share with the admin token, refuses a bad body (400) and no token (401)', async () => {
    const url = `${sim.url}/admin/conduct`;
    const auth = { authorization: `Bearer ${sim.adminToken}` };
    const before = await request(url, { headers: auth });
    assert.equal(before.status, 200, before.text);
    try {
      assert.equal((await request(url, { method: 'PUT', body: { seed: 7, share: 0.25 } })).status, 401);
      assert.equal((await request(url, { method: 'PUT', body: { share: 2 }, headers: auth })).status, 400);
      const set = await request(url, { method: 'PUT', body: { seed: 7, share: 0.25 }, headers: auth });
      assert.equal(set.status, 200, set.text);
      assert.deepEqual((await request(url, { headers: auth })).json, set.json);
      assert.equal((set.json as { share: number }).share, 0.25);
    } finally {
      await request(url, { method: 'PUT', body: before.json as object, headers: auth });
    }
  });
});
