import { strict as assert } from 'node:assert';
import { Webhook } from 'standardwebhooks';
import { checksumMatches, hmacHex, qrChecksumText } from '../src/checksum';
import { autoSubmitFormHtml, signExpressCheckout, signLegacyCheckout, verifyCheckoutReturn } from '../src/checkout';
import { encryptPayerVpa, type VpaPadding } from '../src/payer-vpa';
import { SignatureVerificationError } from '../src/signature-error';
import { fakeRealtimeTxn, signFakeCheckoutReturn, signFakeWebhook } from '../src/testing';
import { standardWebhookSignature, verifyWebhook } from '../src/webhooks';
// The gateway's own code, to show the SDK signs exactly what the gateway verifies.
import { checksumMatchesAny, expressChecksumTexts, legacyChecksumTexts } from '../../src/domain/checkout-checksum';
import { verifiedReturnKind } from '../../src/domain/checkout-return';
import { decryptPayerVpa } from '../../src/domain/payer-vpa';
import { newMerchantKeys } from '../../src/usecases/provision-merchant';

// The vectors the gateway's checksum tests publish (test/unit/checksum.test.ts, computed with openssl).
const SECRET = '0678056d96914a8583fb518caf42828a';
const MID = 'b19e8f103bce406cbd3476431b6b7973';

describe('SDK: checksum vectors and signing helpers (no servers)', () => {
  it('status body, QR text and UTF-8 bytes give the published HMAC-SHA256 values', () => {
    const body = `{"merchantIdentifier":"${MID}","orderId":"ZPLive1602500556344","version":13}`;
    assert.equal(hmacHex(SECRET, body), 'e3329de4ddfbf3d3a4d0ad823f9b1c62db8efe4eb135e04d4eafb4bc66afad7c');
    const qr = qrChecksumText({
      merchantIdentifier: MID,
      orderId: 'ORD-1001',
      amount: 10000,
      productDescription: 'Order for Tea',
    });
    assert.equal(hmacHex(SECRET, qr), 'd6c5116b426fabd338eede3739cd0fdf59218e35fbfefaa4da9e9c7be4477ee5');
    assert.equal(
      hmacHex(SECRET, `{"merchantIdentifier":"${MID}","amount":"₹ 100"}`),
      '388c90e244b44c77b186c886a14b1144dbd498b77200ea76e416472bd0ddbfd1',
    );
    assert.equal(checksumMatches(SECRET, body, 'E3329DE4DDFBF3D3A4D0AD823F9B1C62DB8EFE4EB135E04D4EAFB4BC66AFAD7C'), true);
    assert.equal(
      checksumMatches(SECRET, body.replace(',', ', '), 'e3329de4ddfbf3d3a4d0ad823f9b1c62db8efe4eb135e04d4eafb4bc66afad7c'),
      false,
    );
    assert.equal(checksumMatches(SECRET, body, 'not hex'), false);
  });

  it("Standard Webhooks: the specification's published vector, and fake calls the reference library verifies", () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const vector = standardWebhookSignature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    assert.equal(vector.toString('base64'), 'g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    for (const format of ['form', 'json'] as const) {
      const fake = signFakeWebhook(
        { merchantIdentifier: MID, txns: [], refunds: [] },
        { secretKey: SECRET, signingSecret: secret, format },
      );
      assert.doesNotThrow(() => new Webhook(secret).verify(fake.body, fake.headers, { jsonParse: false } as never));
    }
  });

  it('payerVpa encrypted in each padding decrypts with the gateway code', async () => {
    const keys = await newMerchantKeys();
    for (const padding of ['oaep-sha256', 'oaep-sha1', 'pkcs1'] as VpaPadding[]) {
      assert.equal(
        decryptPayerVpa(keys.privateKeyPem, encryptPayerVpa(keys.publicKeyPem, 'asha.rao@okbank', padding)),
        'asha.rao@okbank',
      );
    }
  });

  it('express and legacy checkout requests carry the checksum the gateway accepts', () => {
    const fields = {
      merchantIdentifier: MID,
      orderId: 'ORD-7',
      amount: '25000',
      currency: 'INR' as const,
      buyerEmail: 'asha@example.com',
      productDescription: 'Tea, 1 kg',
      returnUrl: 'https://shop.example/return?cart=7#x',
      paymentMode: 'card',
    };
    const express = signExpressCheckout('https://gw.example/', SECRET, fields);
    assert.equal(express.action, 'https://gw.example/api/paymentTransact/V8');
    const checksum = express.fields.at(-1)![1];
    assert.ok(checksumMatchesAny(SECRET, expressChecksumTexts(express.fields), checksum));
    assert.ok(
      !checksumMatchesAny(
        SECRET,
        expressChecksumTexts(express.fields.map(([k, v]) => [k, k === 'amount' ? '2500' : v])),
        checksum,
      ),
    );
    const legacy = signLegacyCheckout(
      'https://gw.example',
      SECRET,
      { merchantIdentifier: MID, orderId: 'ORD-8', amount: '25000' },
      '2',
    );
    assert.equal(legacy.action, 'https://gw.example/transact?v=2');
    assert.ok(checksumMatchesAny(SECRET, legacyChecksumTexts(legacy.fields), legacy.fields.at(-1)![1]));
  });

  it('renders the auto-submitting form with every value HTML-escaped', () => {
    const html = autoSubmitFormHtml({ action: 'https://gw.example/transactU?v=8&x=1', fields: [['data', '{"a":"<b>\'&"}']] });
    assert.ok(html.includes('action="https://gw.example/transactU?v=8&amp;x=1"'));
    assert.ok(html.includes('value="{&quot;a&quot;:&quot;&lt;b&gt;&#39;&amp;&quot;}"'));
    assert.ok(!html.includes('<b>'));
    assert.ok(html.includes('.submit()'));
  });

  it('fake checkout returns (V8, V7, legacy) verify with the SDK and the gateway; a changed field does not', () => {
    for (const kind of ['V8', 'V7', 'legacy'] as const) {
      const body = signFakeCheckoutReturn(
        SECRET,
        { orderId: 'ORD-9', responseCode: '100', responseDescription: 'ok', amount: '900' },
        kind,
      );
      const verified = verifyCheckoutReturn(SECRET, body);
      assert.equal(verified.kind, kind);
      assert.equal(verified.paid, true);
      assert.equal(verifiedReturnKind(SECRET, [...new URLSearchParams(body)]), kind);
      assert.throws(
        () => verifyCheckoutReturn(SECRET, body.replace('responseCode=100', 'responseCode=101')),
        SignatureVerificationError,
      );
      assert.throws(() => verifyCheckoutReturn('another-secret', body), SignatureVerificationError);
    }
  });

  it('verifies a fake webhook in either body form, with the Standard signature; refuses a tampered or stale one', () => {
    const signingSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const txnData = { merchantIdentifier: MID, txns: [fakeRealtimeTxn({ orderId: 'ORD-10', amount: '90000' })], refunds: [] };
    for (const format of ['form', 'json'] as const) {
      const call = signFakeWebhook(txnData, { secretKey: SECRET, signingSecret, format });
      const ok = verifyWebhook(call.body, call.headers, { secretKey: SECRET, signingSecret });
      assert.deepEqual(ok.txnData, txnData);
      assert.equal(ok.signedWithStandardWebhooks, true);
      const tampered = call.body.replace('90000', '10000');
      assert.notEqual(tampered, call.body);
      assert.throws(() => verifyWebhook(tampered, call.headers, { secretKey: SECRET }), SignatureVerificationError);
      assert.throws(() => verifyWebhook(call.body, call.headers, { secretKey: 'another' }), SignatureVerificationError);
      const later = () => new Date(Date.now() + 3600_000);
      assert.throws(() => verifyWebhook(call.body, call.headers, { secretKey: SECRET, signingSecret, now: later }), /timestamp/);
      const noHeaders = { 'content-type': call.headers['content-type']! };
      assert.throws(() => verifyWebhook(call.body, noHeaders, { secretKey: SECRET, signingSecret }), /header is missing/);
    }
  });
});
