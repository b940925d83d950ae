import { strict as assert } from 'node:assert';
import { checkoutToken, legacyCheckoutToken } from '../../src/domain/checkout';
import { CheckoutRepository } from '../../src/store/checkout-repository';
import { findCheckoutOfOrder } from '../../src/usecases/checkout-of-order';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { postTransactU, v8Data } from '../support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId } from '../support/payments';

/**
 * The hosted page's token is keyed by a key derived from MASTER_KEY for that purpose alone; the
 * checkouts made under the old token (MASTER_KEY itself) stay reachable during their life.
 */
describe('Checkout tokens: a derived key, and the legacy tokens during their life', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Token keys')));

  const key = () => gw.rt.config.secrets.masterKey;
  const post = (orderId: string) => postTransactU(gw, merchant.secretKey, v8Data(merchant, orderId), { browser: true });
  const checkouts = () => gw.rt.store.db.collection<{ _id: string; createdAt: Date }>('checkouts');

  it('a new checkout is addressed by the derived key, never by MASTER_KEY itself', async () => {
    const orderId = newOrderId('tok');
    const posted = await post(orderId);
    assert.equal(posted.status, 303, posted.text);
    const token = checkoutToken(key(), merchant.merchantIdentifier, orderId);
    assert.equal(posted.location, `/checkout/${token}`);
    assert.notEqual(token, legacyCheckoutToken(key(), merchant.merchantIdentifier, orderId));
  });

  it('a checkout made under the legacy token is answered again, and found by its order, during its life only', async () => {
    const orderId = newOrderId('legacy');
    const order = { merchantIdentifier: merchant.merchantIdentifier, orderId };
    assert.equal((await post(orderId)).status, 303);
    // As the previous version stored it: the same checkout under the legacy token.
    const legacy = legacyCheckoutToken(key(), order.merchantIdentifier, orderId);
    const doc = (await checkouts().findOneAndDelete({ _id: checkoutToken(key(), order.merchantIdentifier, orderId) }))!;
    await checkouts().insertOne({ ...doc, _id: legacy });

    const again = await post(orderId);
    assert.equal(again.location, `/checkout/${legacy}`, 'the repeat lands on the page its payer may hold');
    assert.equal(await checkouts().countDocuments({ orderId, merchantIdentifier: order.merchantIdentifier }), 1);
    const page = await fetch(`${gw.baseUrl}/checkout/${legacy}`);
    assert.equal(page.status, 200);

    // A tester's scan of its QR finds the order's (legacy) checkout: a checkout order is no QR order otherwise.
    const scanned = await fetch(`${gw.baseUrl}/sandbox/v1/qr/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...order, payerVpa: 'success@sandbox' }),
    });
    assert.equal(scanned.status, 202, await scanned.text());

    const life = gw.rt.config.payments.checkoutExpirySeconds * 1000;
    const at = (ms: number) => ({
      checkouts: new CheckoutRepository(gw.rt.store.db, key()),
      config: gw.rt.config,
      now: () => new Date(doc.createdAt.getTime() + ms),
    });
    assert.equal((await findCheckoutOfOrder(at(life), order))?._id, legacy);
    assert.equal(
      await findCheckoutOfOrder(at(2 * life), order),
      null,
      'no longer looked up once its life and the return are over',
    );
  });
});
