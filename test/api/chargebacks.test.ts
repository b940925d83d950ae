import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { refund, refundFinished } from '../support/refunds';

describe('Operator API: POST /ops/v1/chargebacks', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant()));

  const chargeback = (body: Record<string, unknown> | string, token = gw.rt.config.secrets.opsToken) =>
    request(`${gw.baseUrl}/ops/v1/chargebacks`, {
      body: typeof body === 'string' ? body : JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, ...body }),
      headers: { authorization: `Bearer ${token}` },
    });
  async function order(payerVpa = 'success@sandbox'): Promise<string> {
    const orderId = newOrderId('cb');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, payerVpa });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return orderId;
  }
  const txnStatus = async (orderId: string) =>
    (await checkStatus(gw.baseUrl, merchant.secretKey, { merchantIdentifier: merchant.merchantIdentifier, orderId })).json.data
      .orders[0].txnStatus;

  it('full chargeback is 6 and its revert 5', async () => {
    const orderId = await order();
    const raised = await chargeback({ orderId, amount: 10_000, action: 'raise' });
    assert.deepEqual(raised.json, {
      success: true,
      data: { merchantIdentifier: merchant.merchantIdentifier, orderId, txnStatus: '6', chargebackAmount: '10000' },
    });
    assert.equal(await txnStatus(orderId), '6');
    assert.equal((await chargeback({ orderId, amount: 10_000, action: 'revert' })).json.data.txnStatus, '5');
    assert.equal(await txnStatus(orderId), '5');
  });

  it('partial chargeback is 8 and its revert 7', async () => {
    const orderId = await order();
    assert.equal((await chargeback({ orderId, amount: 4000, action: 'raise' })).json.data.txnStatus, '8');
    assert.equal((await chargeback({ orderId, amount: 4000, action: 'revert' })).json.data.txnStatus, '7');
  });

  it('refuses every other transition with its code and changes nothing', async () => {
    const declined = await order('failure@sandbox');
    const paid = await order();
    const refunded = await order();
    await refund(gw, merchant, { orderId: refunded, merchantRefId: 'r' });
    await refundFinished(gw, merchant.merchantIdentifier, refunded, 'r');
    const cases: [Record<string, unknown>, string][] = [
      [{ orderId: declined, amount: 100, action: 'raise' }, '2033'],
      [{ orderId: refunded, amount: 100, action: 'raise' }, '2033'],
      [{ orderId: paid, amount: 100, action: 'revert' }, '2033'],
      [{ orderId: paid, amount: 10_001, action: 'raise' }, '2034'],
      [{ orderId: newOrderId('none'), amount: 100, action: 'raise' }, '2020'],
    ];
    for (const [body, code] of cases) {
      const res = await chargeback(body);
      assert.equal(res.status, 200);
      assert.deepEqual([res.json.success, res.json.message.code], [false, code], JSON.stringify(body));
    }
    await chargeback({ orderId: paid, amount: 5000, action: 'raise' });
    const differs = await chargeback({ orderId: paid, amount: 4000, action: 'revert' });
    assert.equal(differs.json.message.code, '2035');
    assert.equal(
      (await chargeback({ orderId: paid, amount: 5000, action: 'raise' })).json.message.code,
      '2033',
      'no second raise',
    );
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, paid))?.status, 'PartialChargeback');
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, declined))?.status, 'Failure');
  });

  it('refuses bad input with 400 and a bad token with 401', async () => {
    const orderId = await order();
    const cases: [Record<string, unknown> | string, number, string, string?][] = [
      ['{"orderId":', 400, '2001'],
      [{ orderId, amount: '100', action: 'raise' }, 400, '2002'],
      [{ orderId, amount: 0, action: 'raise' }, 400, '2002'],
      [{ orderId, amount: 100, action: 'cancel' }, 400, '2002'],
      [{ orderId, action: 'raise' }, 400, '2002'],
      [{ orderId, amount: 100, action: 'raise' }, 401, '2014', 'not-the-operator-token-at-all'],
    ];
    for (const [body, status, code, token] of cases) {
      const res = await chargeback(body, token);
      assert.equal(res.status, status);
      assert.equal(res.json.message.code, code);
    }
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.status, 'Success');
  });
});
