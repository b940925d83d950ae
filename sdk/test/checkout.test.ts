import { strict as assert } from 'node:assert';
import {
  signCustomCheckout,
  signExpressCheckout,
  signLegacyCheckout,
  verifyCheckoutReturn,
  type SignedForm,
} from '../src/checkout';
import { SignatureVerificationError } from '../src/signature-error';
import { awaitResultPage, payOnCheckoutPage, postForm, returnFormOf } from '../../test/support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../../test/support/gateway';
import { newOrderId } from '../../test/support/payments';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';

/**
 * The SDK's three checkout request forms against the real gateway: each is accepted (the payer's
 * browser is sent to the hosted page), paid with a sandbox instrument, and the return the gateway
 * posts back verifies with verifyCheckoutReturn, as the form it is; a changed field does not.
 */
describe('SDK checkout: signed request forms and the verified return, against a real gateway', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('SDK Checkout'));
  });

  const returnUrl = 'http://127.0.0.1:9/return?cart=7';
  const forms: Record<string, { kind: 'V8' | 'V7' | 'legacy'; form: (orderId: string) => SignedForm }> = {
    '/transactU?v=8 (custom)': {
      kind: 'V8',
      form: (orderId) =>
        signCustomCheckout(gw.baseUrl, merchant.secretKey, {
          merchantIdentifier: merchant.merchantIdentifier,
          returnUrl,
          orderDetail: {
            orderId,
            amount: '90000',
            currency: 'INR',
            productDescription: 'Tea, 1 kg (Assam)',
            email: 'asha@example.com',
          },
        }),
    },
    ...Object.fromEntries(
      (['V8', 'V7'] as const).map((version) => [
        `/api/paymentTransact/${version} (express)`,
        {
          kind: version,
          form: (orderId: string) =>
            signExpressCheckout(
              gw.baseUrl,
              merchant.secretKey,
              {
                merchantIdentifier: merchant.merchantIdentifier,
                orderId,
                amount: '90000',
                currency: 'INR',
                buyerEmail: 'asha@example.com',
                productDescription: 'Tea, 1 kg (Assam)',
                returnUrl,
              },
              version,
            ),
        },
      ]),
    ),
    '/transact?v=2 (legacy)': {
      kind: 'legacy',
      form: (orderId) =>
        signLegacyCheckout(
          gw.baseUrl,
          merchant.secretKey,
          { merchantIdentifier: merchant.merchantIdentifier, orderId, amount: '90000', productDescription: 'Tea', returnUrl },
          '2',
        ),
    },
  };

  for (const [name, { kind, form }] of Object.entries(forms)) {
    it(`${name}: accepted, paid by UPI, and its ${kind} return verifies`, async () => {
      const orderId = newOrderId('sdk-co');
      const signed = form(orderId);
      const posted = await postForm(signed.action, signed.fields, { browser: true });
      assert.equal(posted.status, 303, posted.text);
      await payOnCheckoutPage(gw, posted.location!, [['payerVpa', 'success@sandbox']]);
      const back = returnFormOf(await awaitResultPage(gw, posted.location!));
      assert.equal(back.action, returnUrl);
      const result = verifyCheckoutReturn(merchant.secretKey, new URLSearchParams(back.fields));
      assert.equal(result.kind, kind);
      assert.equal(result.orderId, orderId);
      assert.equal(result.paid, true);
      const changed = back.fields.map(([k, v]) => [k, k === 'responseCode' ? '102' : v] as [string, string]);
      assert.throws(() => verifyCheckoutReturn(merchant.secretKey, new URLSearchParams(changed)), SignatureVerificationError);
    });
  }

  it('a request signed with another secret is refused by the gateway (180)', async () => {
    const signed = signCustomCheckout(gw.baseUrl, 'f'.repeat(32), {
      merchantIdentifier: merchant.merchantIdentifier,
      returnUrl,
      orderDetail: { orderId: newOrderId('sdk-co'), amount: '90000', productDescription: 'Tea' },
    });
    const posted = await postForm(signed.action, signed.fields);
    assert.equal(posted.json?.responseCode, '180', posted.text);
  });
});
