import { strict as assert } from 'node:assert';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';

describe('Sandbox payer: POST /sandbox/v1/payments', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;

  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant()));

  it('answers at once with the txnId and Pending, then the workflow records the outcome', async () => {
    const orderId = newOrderId();
    const res = await sandboxPay(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      payerVpa: 'success@sandbox',
      buyerName: 'Asha Rao',
      buyerEmail: 'asha@example.in',
    });
    assert.equal(res.status, 202);
    assert.deepEqual(res.json, {
      success: true,
      data: { merchantIdentifier: merchant.merchantIdentifier, orderId, txnId: res.json.data.txnId, txnStatus: '2' },
    });
    assert.match(res.json.data.txnId, /^[0-9A-Z]{16,}$/);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.equal(t?.txnId, res.json.data.txnId);
    assert.equal(t?.status, 'Success');
    assert.equal(t?.amountPaise, 10_000);
    assert.equal(t?.buyerName, 'Asha Rao');
    assert.equal(t?.buyerEmail, 'asha@example.in');
    assert.match(t?.bankRefNum ?? '', /^\d{12}$/);
    assert.ok(t!.version > 1, 'the outcome bumped the version');
  });

  it('tags the workflow with search attributes operators filter by', async () => {
    const orderId = newOrderId();
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, bankCode: 'SBIN' });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const description = await gw.rt.temporal.workflow
      .getHandle(paymentWorkflowId(merchant.merchantIdentifier, orderId))
      .describe();
    // No TemporalChangeVersion: a payment asks no patch (each would cost a search-attribute write).
    const attrs = Object.fromEntries(description.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
    delete attrs.BuildIds; // the server's own
    assert.deepEqual(attrs, { MerchantId: merchant.merchantIdentifier, OrderId: orderId, TxnStatus: 'Success', Kind: 'payment' });
    assert.equal(description.memo?.amount, '₹100.00');
  });

  it('a repeated request returns the same order and starts nothing new', async () => {
    const orderId = newOrderId();
    const body = { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' };
    const first = await sandboxPay(gw, body);
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const handle = gw.rt.temporal.workflow.getHandle(paymentWorkflowId(merchant.merchantIdentifier, orderId));
    const runId = (await handle.describe()).runId;
    const storedBefore = await storedTransaction(gw, merchant.merchantIdentifier, orderId);

    const again = await sandboxPay(gw, body);
    assert.equal(again.status, 200);
    assert.equal(again.json.success, true);
    assert.equal(again.json.data.txnId, first.json.data.txnId);
    assert.equal(again.json.data.txnStatus, '0');
    assert.equal((await handle.describe()).runId, runId);
    assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, orderId), storedBefore);
  });

  it('concurrent first requests for one order create one transaction and one workflow', async () => {
    const orderId = newOrderId();
    const body = { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' };
    const results = await Promise.all(Array.from({ length: 6 }, () => sandboxPay(gw, body)));
    assert.deepEqual(
      results.map((r) => r.json.success),
      Array(6).fill(true),
    );
    assert.equal(new Set(results.map((r) => r.json.data.txnId)).size, 1);
    assert.equal(results.filter((r) => r.status === 202).length, 1, 'exactly one request created the order');
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    assert.equal(
      await gw.rt.store.db
        .collection('transactions')
        .countDocuments({ merchantIdentifier: merchant.merchantIdentifier, orderId }),
      1,
    );
  });

  it('refuses the same orderId with different details as a business result, keeping the original', async () => {
    const orderId = newOrderId();
    const first = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const storedBefore = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    const res = await sandboxPay(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      amount: 20_000,
      payerVpa: 'success@sandbox',
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json.message, { code: '2030', text: 'Order already exists with different details' });
    assert.equal(res.json.success, false);
    assert.equal(res.json.data.txnId, first.json.data.txnId);
    assert.deepEqual(await storedTransaction(gw, merchant.merchantIdentifier, orderId), storedBefore);
  });

  it('the same orderId at two merchants is two orders', async () => {
    const other = await gw.newMerchant('Other');
    const orderId = newOrderId('shared');
    const a = await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    const b = await sandboxPay(gw, { merchantIdentifier: other.merchantIdentifier, orderId, payerVpa: 'failure@sandbox' });
    assert.equal(a.status, 202);
    assert.equal(b.status, 202);
    assert.notEqual(a.json.data.txnId, b.json.data.txnId);
    assert.equal((await paymentFinished(gw, merchant.merchantIdentifier, orderId)).status, 'Success');
    assert.equal((await paymentFinished(gw, other.merchantIdentifier, orderId)).status, 'Failure');
  });

  describe('bad input: 4xx in the success envelope, never a 500, no order created', () => {
    // Each case: what to change in a valid request (undefined removes the field).
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['no instrument', { payerVpa: undefined }, 400, '2002'],
      ['two instruments', { bankCode: 'SBIN' }, 400, '2002'],
      ['an unknown VPA', { payerVpa: 'me@okbank' }, 400, '2002'],
      ['an unknown card', { payerVpa: undefined, cardNumber: '4111111111111111' }, 400, '2002'],
      ['amount in rupees with decimals', { amount: 10.5 }, 400, '2002'],
      ['amount as a string', { amount: '1000' }, 400, '2002'],
      ['a zero amount', { amount: 0 }, 400, '2002'],
      ['an amount over the limit', { amount: 100_000_001 }, 400, '2002'],
      ['a missing description', { productDescription: undefined }, 400, '2002'],
      ['a bad buyerEmail', { buyerEmail: 'nope' }, 400, '2002'],
      ['an orderId with spaces', { orderId: 'a b' }, 400, '2002'],
      ['an unknown merchant', { merchantIdentifier: 'f'.repeat(32) }, 401, '2012'],
      ['an oversized body', { pad: 'x'.repeat(70_000) }, 413, '2004'],
    ];
    for (const [name, change, status, code] of cases) {
      it(`${name}: ${status}`, async () => {
        const orderId = newOrderId();
        const valid = {
          merchantIdentifier: merchant.merchantIdentifier,
          orderId,
          amount: 1000,
          productDescription: 'x',
          payerVpa: 'success@sandbox',
        };
        const res = await request(`${gw.baseUrl}/sandbox/v1/payments`, { body: { ...valid, ...change } });
        assert.equal(res.status, status, res.text);
        assert.equal(res.json.success, false);
        assert.equal(res.json.message.code, code);
        assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, orderId), null);
      });
    }

    it('malformed JSON: 400', async () => {
      const res = await request(`${gw.baseUrl}/sandbox/v1/payments`, { body: '{"orderId": ' });
      assert.equal(res.status, 400);
      assert.equal(res.json.message.code, '2001');
    });

    it('form-encoded body: 415', async () => {
      const res = await request(`${gw.baseUrl}/sandbox/v1/payments`, {
        body: 'orderId=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 415);
      assert.equal(res.json.message.code, '2003');
    });
  });

  it('is absent when the configuration turns the sandbox off', async () => {
    const production = await startTestGateway({ SANDBOX_ENABLED: 'false' });
    try {
      const res = await sandboxPay(production, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: newOrderId(),
        payerVpa: 'success@sandbox',
      });
      assert.equal(res.status, 404);
      assert.equal(res.json.message.code, '2040');
    } finally {
      await production.stop();
    }
  });
});
