import { strict as assert } from 'node:assert';
import net from 'node:net';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus, request } from '../support/http';
import { newOrderId, sandboxPay, storedTransaction } from '../support/payments';

/** Raw bytes to the gateway and the raw answer back, for requests no HTTP client would send. */
function rawExchange(baseUrl: string, chunks: (string | Buffer)[], o: { endAfterMs?: number } = {}): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', (e) => (answer ? resolve(answer) : reject(e)));
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
      if (o.endAfterMs !== undefined) setTimeout(() => socket.end(), o.endAfterMs);
    });
  });
}

const statusLine = (answer: string) => Number(answer.slice(9, 12));
const jsonOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('HTTP edge: strict input, 405 Allow, Node-level errors in the envelope', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant()));

  it('refuses duplicate keys: two payerVpa never charge the last one', async () => {
    const orderId = newOrderId();
    const body = `{"merchantIdentifier":"${merchant.merchantIdentifier}","orderId":"${orderId}","amount":10000,"productDescription":"Tea","payerVpa":"failure@sandbox","payerVpa":"success@sandbox"}`;
    const res = await request(`${gw.baseUrl}/sandbox/v1/payments`, { body });
    assert.equal(res.status, 400);
    assert.equal(res.json.message.code, '2001');
    assert.match(res.json.message.text, /given twice/);
    assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, orderId), null);
  });

  it('refuses invalid UTF-8 instead of storing U+FFFD, and never echoes the body', async () => {
    const orderId = newOrderId();
    const body = Buffer.concat([
      Buffer.from(
        `{"merchantIdentifier":"${merchant.merchantIdentifier}","orderId":"${orderId}","amount":10000,"productDescription":"ab`,
      ),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('cd","payerVpa":"success@sandbox"}'),
    ]);
    const res = await fetch(`${gw.baseUrl}/sandbox/v1/payments`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as any).message.code, '2001');
    assert.equal(await storedTransaction(gw, merchant.merchantIdentifier, orderId), null);
    const syntax = await request(`${gw.baseUrl}/sandbox/v1/payments`, { body: '{"secret-looking-input": nope}' });
    assert.doesNotMatch(syntax.text, /secret-looking-input|nope/);
  });

  it('authenticates a status request before validating it', async () => {
    const body = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, orderId: '!!bad!!', version: 'x' });
    const unsigned = await request(`${gw.baseUrl}/api/payments/v1/status`, { body, headers: { checksum: 'f'.repeat(64) } });
    assert.equal(unsigned.status, 401, 'a caller without the key learns nothing of the validation rules');
    const signed = await checkStatus(gw.baseUrl, merchant.secretKey, body);
    assert.equal(signed.status, 400);
  });

  it('answers 405 with an Allow header in the envelope', async () => {
    const res = await request(`${gw.baseUrl}/api/payments/v1/status`, { method: 'GET' });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    assert.deepEqual(res.json, { status: false, message: { code: 2041, text: 'Method not allowed' } });
    const put = await request(`${gw.baseUrl}/sandbox/v1/payments`, { method: 'PUT', body: '{}' });
    assert.deepEqual([put.status, put.headers.get('allow'), put.json.message.code], [405, 'POST', '2041']);
  });

  it("an address in other capitals, which the router reaches, speaks that address's envelope and codes", async () => {
    const status = await request(`${gw.baseUrl}/API/Payments/V1/STATUS`, { method: 'GET' });
    assert.deepEqual([status.status, status.json], [405, { status: false, message: { code: 2041, text: 'Method not allowed' } }]);
    const ledger = await request(`${gw.baseUrl}/API/V1/LEDGER`, { body: '{}' });
    assert.deepEqual(
      [ledger.status, ledger.json],
      [401, { success: false, message: { code: '100', text: 'API key value can not be empty.' } }],
      "the ledger's own code for a missing key, not the catalogue's 2013",
    );
    const checkTxn = await request(`${gw.baseUrl}/CHECKTXN?v=5`, { method: 'GET' });
    const plain = await request(`${gw.baseUrl}/checkTxn?v=5`, { method: 'GET' });
    assert.equal(checkTxn.status, plain.status);
    assert.deepEqual(checkTxn.json, plain.json, "/CHECKTXN answers in /checkTxn's shape");
  });

  it('answers headers over 16 KB with 431 in the envelope of the path', async () => {
    const big = 'x'.repeat(20_000);
    const status = await rawExchange(gw.baseUrl, [`POST /api/payments/v1/status HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`]);
    assert.equal(statusLine(status), 431);
    assert.deepEqual(jsonOf(status), { status: false, message: { code: 2006, text: 'Request headers too large' } });
    const other = await rawExchange(gw.baseUrl, [`POST /sandbox/v1/payments HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`]);
    assert.deepEqual(jsonOf(other), { success: false, message: { code: '2006', text: 'Request headers too large' } });
  });

  it('answers a malformed chunk with 400 in the envelope', async () => {
    const answer = await rawExchange(gw.baseUrl, [
      'POST /sandbox/v1/payments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n{}\r\n0\r\n\r\n',
    ]);
    assert.equal(statusLine(answer), 400);
    assert.equal(jsonOf(answer).success, false);
  });

  it("answers Node's refusals by the same rules as the app's: HTTP 200 where the contract codes refusals, the envelope its query selects", async () => {
    const chunked = (path: string) =>
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nx\r\n0\r\n\r\n`;
    const update = await rawExchange(gw.baseUrl, [chunked('/updateTxn')]);
    assert.equal(statusLine(update), 200, update);
    assert.equal(jsonOf(update).responseCode, '2008');
    const big = 'x'.repeat(20_000);
    const checkout = await rawExchange(gw.baseUrl, [`POST /transactU?v=8 HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`]);
    const mandate = await rawExchange(gw.baseUrl, [`POST /transactU?v=12 HTTP/1.1\r\nHost: x\r\nX-Big: ${big}\r\n\r\n`]);
    assert.equal(statusLine(checkout), 431);
    assert.equal(jsonOf(mandate).paymentMode, 'UPI_MANDATE');
    assert.equal(jsonOf(checkout).paymentMode, null, checkout);
  });

  it('answers a stalled request with 408 in the envelope within the configured timeout', async () => {
    const quick = await startTestGateway({ REQUEST_TIMEOUT_SECONDS: '1' });
    try {
      const started = Date.now();
      const answer = await rawExchange(quick.baseUrl, [
        'POST /api/payments/v1/status HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"merch',
      ]);
      assert.ok(Date.now() - started < 30_000);
      assert.equal(statusLine(answer), 408, answer);
      assert.deepEqual(jsonOf(answer), { status: false, message: { code: 2007, text: 'The request was not received in time' } });
    } finally {
      await quick.stop();
    }
  });

  it('still serves ordinary requests', async () => {
    const res = await sandboxPay(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: newOrderId(),
      payerVpa: 'success@sandbox',
    });
    assert.equal(res.status, 202);
  });
});
