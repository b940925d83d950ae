import { strict as assert } from 'node:assert';
import { Webhook } from 'standardwebhooks';
import { hmacSha256Hex } from '../../src/domain/checksum';
import { SPAWN_TIMEOUT_MS } from '../support/cli';
import { deliveryResult } from '../support/deliveries';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay } from '../support/payments';
import { startReceiver, type ReceivedCall } from '../support/receiver';

/** The receiver's Standard Webhooks check, with the reference library (form bodies are not JSON). */
function verifiesStandard(secret: string, call: { body: string; headers: Record<string, unknown> }): boolean {
  try {
    new Webhook(secret).verify(call.body, call.headers as Record<string, string>, { jsonParse: false });
    return true;
  } catch {
    return false;
  }
}

/** The receiver's check of the contract's checksum over the exact txnData it got. */
function verifiesChecksum(secretKey: string, body: string): boolean {
  const form = new URLSearchParams(body);
  return form.get('checksum') === hmacSha256Hex(secretKey, form.get('txnData') ?? '');
}

const headersOf = (c: ReceivedCall) => c.headers as Record<string, string>;

describe('Standard Webhooks signatures beside the contract checksum, and signing secret rotation', function () {
  this.timeout(6 * SPAWN_TIMEOUT_MS);
  let gw: TestGateway;
  let ops: Record<string, string>;
  before(async () => {
    gw = await startTestGateway({ WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms' });
    ops = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });
  after(async () => gw?.stop());

  const secrets = async (merchantIdentifier: string) => {
    const res = await request(`${gw.baseUrl}/ops/v1/merchants/${merchantIdentifier}/webhook-signing-secret`, { headers: ops });
    assert.equal(res.status, 200);
    return res.json.data.secrets as { secret: string; retiresAt: string | null }[];
  };
  const rotate = async (merchantIdentifier: string, body: object) => {
    const res = await request(`${gw.baseUrl}/ops/v1/merchants/${merchantIdentifier}/webhook-signing-secret/rotate`, {
      method: 'POST',
      headers: ops,
      body,
    });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json.data.secrets as { secret: string; retiresAt: string | null }[];
  };
  const pay = async (merchantIdentifier: string) => {
    const orderId = newOrderId('sig');
    await sandboxPay(gw, { merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
    await paymentFinished(gw, merchantIdentifier, orderId);
    return deliveryResult(gw, `rt:${merchantIdentifier}:${orderId}`);
  };

  it('every attempt verifies with the reference library and the checksum; tampered, old or rotated-away is refused', async () => {
    // Fails the first attempt so a retry (new timestamp, same bytes) is verified too.
    const receiver = await startReceiver((n) => (n === 1 ? { status: 500, body: 'later' } : { status: 200, body: 'SUCCESS' }));
    try {
      const m = await gw.newMerchant('Signed hooks');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const [first] = await secrets(m.merchantIdentifier);
      assert.match(first!.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(Buffer.from(first!.secret.slice(6), 'base64').length, 32);
      assert.deepEqual(await pay(m.merchantIdentifier), { state: 'delivered', attempts: 2 });

      assert.equal(receiver.calls.length, 2);
      for (const call of receiver.calls) {
        assert.ok(verifiesStandard(first!.secret, call), 'standardwebhooks accepts it');
        assert.ok(verifiesChecksum(m.secretKey, call.body), 'the contract checksum matches');
        assert.equal(call.headers['webhook-id'], call.headers['x-webhook-id']);
        assert.match(String(call.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
      }
      const call = receiver.calls[1]!;
      // A tampered body: both checks refuse it.
      const tampered = call.body.replace('10000', '90000');
      assert.notEqual(tampered, call.body);
      assert.equal(verifiesStandard(first!.secret, { ...call, body: tampered }), false);
      assert.equal(verifiesChecksum(m.secretKey, tampered), false);
      // An old timestamp, even correctly signed (a replayed capture): refused.
      const old = new Date(Date.now() - 10 * 60_000);
      const oldHeaders = {
        ...headersOf(call),
        'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
        'webhook-signature': new Webhook(first!.secret).sign(String(call.headers['webhook-id']), old, call.body),
      };
      assert.equal(verifiesStandard(first!.secret, { body: call.body, headers: oldHeaders }), false);

      // Rotation with an overlap: both signatures are sent, each secret verifies.
      const rotated = await rotate(m.merchantIdentifier, { overlapSeconds: 3600 });
      assert.equal(rotated.length, 2);
      assert.notEqual(rotated[0]!.secret, first!.secret);
      assert.equal(rotated[1]!.secret, first!.secret);
      assert.ok(rotated[1]!.retiresAt);
      assert.deepEqual(await pay(m.merchantIdentifier), { state: 'delivered', attempts: 1 });
      const during = receiver.calls.at(-1)!;
      assert.equal(String(during.headers['webhook-signature']).split(' ').length, 2);
      assert.ok(verifiesStandard(rotated[0]!.secret, during));
      assert.ok(verifiesStandard(first!.secret, during));

      // Rotated again without overlap: the first secret is gone, calls verify only with the newest.
      const again = await rotate(m.merchantIdentifier, { overlapSeconds: 0 });
      assert.equal(again.length, 1);
      assert.deepEqual(await pay(m.merchantIdentifier), { state: 'delivered', attempts: 1 });
      const after = receiver.calls.at(-1)!;
      assert.ok(verifiesStandard(again[0]!.secret, after));
      assert.equal(verifiesStandard(first!.secret, after), false, 'a rotated-away secret is refused');
      assert.equal(verifiesStandard(rotated[0]!.secret, after), false);
      assert.deepEqual(
        (await secrets(m.merchantIdentifier)).map((s) => s.secret),
        [again[0]!.secret],
      );
    } finally {
      await receiver.close();
    }
  });

  it('a retry after both keys rotated verifies with the new keys only: same delivery id, same txnData bytes', async () => {
    const m = await gw.newMerchant('Rotated during retry');
    const rotated: { secretKey?: string; signing?: string } = {};
    // The first attempt is held open while the operator rotates the secret key and the signing
    // secret without overlap, then refused: the retry is signed with what is in force then.
    const receiver = await startReceiver(async (n) => {
      if (n > 1) return { status: 200, body: 'SUCCESS' };
      const key = await request(`${gw.baseUrl}/ops/v1/merchants/${m.merchantIdentifier}/secret-key/rotate`, {
        method: 'POST',
        headers: ops,
        body: { overlapSeconds: 0 },
      });
      assert.equal(key.status, 200, JSON.stringify(key.json));
      rotated.secretKey = key.json.data.secretKey as string;
      rotated.signing = (await rotate(m.merchantIdentifier, { overlapSeconds: 0 }))[0]!.secret;
      return { status: 500, body: 'later' };
    });
    try {
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      const [oldSigning] = await secrets(m.merchantIdentifier);
      assert.deepEqual(await pay(m.merchantIdentifier), { state: 'delivered', attempts: 2 });
      const [first, retry] = receiver.calls;
      assert.ok(rotated.secretKey && rotated.signing);
      assert.notEqual(rotated.secretKey, m.secretKey);
      // The first attempt was signed with the keys of its time...
      assert.ok(verifiesChecksum(m.secretKey, first!.body));
      assert.ok(verifiesStandard(oldSigning!.secret, first!));
      // ...the retry with the keys in force when it was sent, and only with them.
      assert.ok(verifiesChecksum(rotated.secretKey, retry!.body), 'the retry verifies with the new secret key');
      assert.equal(verifiesChecksum(m.secretKey, retry!.body), false);
      assert.ok(verifiesStandard(rotated.signing, retry!));
      assert.equal(verifiesStandard(oldSigning!.secret, retry!), false);
      // The same delivery: its id and the txnData bytes do not change between attempts.
      assert.equal(retry!.headers['x-webhook-id'], first!.headers['x-webhook-id']);
      assert.equal(retry!.headers['webhook-id'], first!.headers['webhook-id']);
      assert.equal(new URLSearchParams(retry!.body).get('txnData'), new URLSearchParams(first!.body).get('txnData'));
      assert.deepEqual([first!.headers['x-webhook-attempt'], retry!.headers['x-webhook-attempt']], ['1', '2']);
    } finally {
      await receiver.close();
    }
  });

  it('refuses unknown fields and unknown merchants', async () => {
    const res = await request(`${gw.baseUrl}/ops/v1/merchants/nobody/webhook-signing-secret/rotate`, {
      method: 'POST',
      headers: ops,
      body: {},
    });
    assert.equal(res.status, 404);
    const m = await gw.newMerchant('Signed hooks 2');
    const extra = await request(`${gw.baseUrl}/ops/v1/merchants/${m.merchantIdentifier}/webhook-signing-secret/rotate`, {
      method: 'POST',
      headers: ops,
      body: { overlapSeconds: 1, color: 'red' },
    });
    assert.equal(extra.status, 400);
  });
});
