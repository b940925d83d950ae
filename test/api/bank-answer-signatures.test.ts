import { strict as assert } from 'node:assert';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BankCallError, HttpBankConnector } from '../../src/bank/http-connector';
import { BANK_SIGNATURE_HEADER, signBankAnswer, signBankRequest } from '../../src/bank/signing';

const SECRET = 'the-secret-the-gateway-and-its-bank-share-0123';

/**
 * The bank's answers to the gateway's calls are read only when signed over the request they answer:
 * a listener standing where the bank is (a forged DNS entry, a proxy) that answers APPROVED or a
 * refusal without the bank's secret makes a retryable failure, never an outcome.
 */
describe('Bank answers: the http connector reads only answers the bank signed (X-Bank-Timestamp, X-Bank-Signature)', function () {
  this.timeout(30_000);
  let server: http.Server;
  let answer: (req: http.IncomingMessage) => { status: number; body: string; headers: Record<string, string> };
  let connector: HttpBankConnector;

  before(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const a = answer(req);
        res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
        res.end(a.body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    connector = new HttpBankConnector({
      baseUrl: `http://127.0.0.1:${port}`,
      secret: SECRET,
      gatewayBaseUrl: 'http://127.0.0.1:9',
      callTimeoutMs: 5_000,
    });
  });
  after(() => new Promise((r) => server.close(r)));

  const approved = (txnId: string) =>
    JSON.stringify({
      txnId,
      amountPaise: 10_000,
      status: 'APPROVED',
      responseCode: '00',
      responseDescription: 'Approved',
      bankRefNum: 'RRN1',
      authCode: 'A1',
    });
  const requestSignature = (req: http.IncomingMessage) => String(req.headers[BANK_SIGNATURE_HEADER] ?? '');

  it('an answer signed over its request is read', async () => {
    answer = (req) => {
      const body = approved('TXNSIGNED1');
      return { status: 200, body, headers: signBankAnswer(SECRET, requestSignature(req), body, new Date()) };
    };
    const read = await connector.inquirePayment({ txnId: 'TXNSIGNED1' });
    assert.equal(read?.approved, true);
  });

  const forgeries: [string, (req: http.IncomingMessage, body: string) => Record<string, string>][] = [
    ['unsigned', () => ({})],
    [
      'signed with another secret',
      (req, body) => signBankAnswer('not-the-bank-secret-at-all-0123456789', requestSignature(req), body, new Date()),
    ],
    // An answer captured from another exchange: signed for another request.
    ['signed for another request', (_req, body) => signBankAnswer(SECRET, 'a'.repeat(64), body, new Date())],
    // A request's (or callback's) signature over the same body is not an answer's.
    ['signed as a request, not an answer', (_req, body) => signBankRequest(SECRET, body, new Date())],
    ['signed too long ago', (req, body) => signBankAnswer(SECRET, requestSignature(req), body, new Date(Date.now() - 600_000))],
  ];
  for (const [what, headers] of forgeries) {
    it(`an APPROVED answer ${what} is a retryable failure, not a payment`, async () => {
      answer = (req) => {
        const body = approved('TXNFORGED1');
        return { status: 200, body, headers: headers(req, body) };
      };
      await assert.rejects(connector.inquirePayment({ txnId: 'TXNFORGED1' }), (e: Error) => {
        assert.ok(e instanceof BankCallError, `${e.name}: ${e.message}`);
        assert.match(e.message, /not signed by the bank/);
        return true;
      });
    });
  }

  it('a payout answer (request and inquiry) with a field the gateway does not use is read; its bytes are still what is signed', async () => {
    const payoutId = 'settlement:msig1:2026-11-03';
    const known = { payoutId, amountPaise: 10_000, status: 'PAID', utr: 'UTR1', responseCode: '00', responseDescription: 'Paid' };
    const body = JSON.stringify({ ...known, valueDate: '2026-11-03' });
    answer = (req) => ({ status: 200, body, headers: signBankAnswer(SECRET, requestSignature(req), body, new Date()) });
    const request = {
      payoutId,
      merchantIdentifier: 'msig1',
      amountPaise: 10_000,
      ifsc: 'HDFC0001234',
      accountNumber: '50100012345678',
    };
    const paid = { status: 'PAID', utr: 'UTR1', responseCode: '00', responseDescription: 'Paid' };
    assert.deepEqual(await connector.requestPayout(request), paid);
    assert.deepEqual(await connector.inquirePayout({ payoutId }), paid);
    // The added field signed away: the bytes read are not the bytes signed.
    answer = (req) => ({
      status: 200,
      body,
      headers: signBankAnswer(SECRET, requestSignature(req), JSON.stringify(known), new Date()),
    });
    await assert.rejects(connector.inquirePayout({ payoutId }), /not signed by the bank/);
  });

  it('a forged refusal (400) is retried too, never taken as the bank refusing for good', async () => {
    answer = () => ({ status: 400, body: JSON.stringify({ error: 'BAD_REQUEST', message: 'forged' }), headers: {} });
    await assert.rejects(connector.inquirePayment({ txnId: 'TXNFORGED2' }), (e: Error) => e instanceof BankCallError);
  });
});
