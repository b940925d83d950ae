import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { checkStatus } from '../support/http';
import { createLinks, linkEntry, linkPath, newBatchId } from '../support/payment-links';

/**
 * Failed authentications per client address and per claimed merchant, and the hosted pages per
 * token and per address: 429 with Retry-After past each. Client addresses come through
 * X-Forwarded-For (TRUST_PROXY), so one test machine plays many clients.
 */
describe('Abuse limits: failed authentications and hosted pages (429 with Retry-After)', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => {
    gw = await startTestGateway(
      {
        TRUST_PROXY: 'true',
        AUTH_FAILURES_PER_ADDRESS_PER_MINUTE: '5',
        AUTH_FAILURES_PER_MERCHANT_PER_MINUTE: '3',
        PAGE_REQUESTS_PER_TOKEN_PER_MINUTE: '4',
        PAGE_REQUESTS_PER_ADDRESS_PER_MINUTE: '6',
      },
      { bank: 'sandbox' },
    );
    merchant = await gw.newMerchant('Limited Shop');
  });
  after(async () => gw.stop());

  const from = (address: string) => ({ 'x-forwarded-for': address });
  const ledgerCall = (apiKey: string, address: string) =>
    fetch(`${gw.baseUrl}/api/v1/ledger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey, ...from(address) },
      body: JSON.stringify({ startDateTime: '2026-01-01', endDateTime: '2026-01-01' }),
    });
  const assertRetryAfter = (res: { status: number; headers: Headers }) => {
    assert.equal(res.status, 429);
    const wait = Number(res.headers.get('retry-after'));
    assert.ok(wait >= 1 && wait <= 60, `Retry-After ${res.headers.get('retry-after')}`);
  };

  it('per address: past 5 failures every request from it is 429, even a good one; other addresses go on', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await ledgerCall('mgw_wrong', '198.51.100.1')).status, 401, `failure ${i + 1}`);
    assertRetryAfter(await ledgerCall('mgw_wrong', '198.51.100.1'));
    assertRetryAfter(await ledgerCall(merchant.apiKey, '198.51.100.1'));
    const status = await checkStatus(
      gw.baseUrl,
      merchant.secretKey,
      { merchantIdentifier: merchant.merchantIdentifier, orderId: 'o1' },
      from('198.51.100.1'),
    );
    assertRetryAfter(status);
    assert.notEqual((await ledgerCall(merchant.apiKey, '198.51.100.2')).status, 429);
  });

  it('per address: the Zaakpay-shaped refusals (/checkTxn with HTTP 200, the checkout entries) count too', async () => {
    const address = '198.51.100.31';
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(address) },
      body: new URLSearchParams(fields).toString(),
    });
    const data = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, mode: '0', orderDetail: { orderId: 'x' } });
    const failures = [
      () => fetch(`${gw.baseUrl}/checkTxn?v=5`, form({ data, checksum: 'f'.repeat(64) })),
      () =>
        fetch(
          `${gw.baseUrl}/transact`,
          form({
            merchantIdentifier: merchant.merchantIdentifier,
            orderId: 'abuse-1',
            amount: '10000',
            checksum: 'f'.repeat(64),
          }),
        ),
    ];
    // Zaakpay's own APIs answer a wrong checksum with HTTP 200 and 180; it is still a failure.
    for (let i = 0; i < 5; i++) assert.ok([200, 401].includes((await failures[i % 2]!()).status), `failure ${i + 1}`);
    assertRetryAfter(await ledgerCall(merchant.apiKey, address));
  });

  it('per address: the split and settlement report refusals (101 and 180, answered HTTP 200) count', async () => {
    const address = '198.51.100.33';
    const post = (path: string, body: object, headers: Record<string, string> = {}) =>
      fetch(`${gw.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers, ...from(address) },
        body: JSON.stringify(body),
      });
    const me = merchant.merchantIdentifier;
    const master = (merchantIdentifier: string) => ({ zaakMerchantIdentifier: merchantIdentifier, merchantAmount: '100' });
    const failures = [
      () => post('/api/v1/splitTxnByAmount', { orderId: 'abuse-3', masterMerchantIdentifier: master('nosuchmerchant0') }),
      () =>
        post(
          '/api/v1/splitTxnByAmount',
          { orderId: 'abuse-3', masterMerchantIdentifier: master(me) },
          { zaakchecksum: 'f'.repeat(64) },
        ),
      () => post('/api/v2/getSettlementReport', { merchantIdentifier: 'nosuchmerchant0', utr_date: '24-11-2026', checksum: 'x' }),
      () => post('/api/v2/getSettlementReport', { merchantIdentifier: me, utr_date: '24-11-2026', checksum: 'f'.repeat(64) }),
    ];
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await failures[i % 4]!();
      assert.equal(res.status, 200, `failure ${i + 1}`);
      const body = (await res.json()) as { errorCode?: string; responsecode?: string };
      codes.push(body.errorCode ?? body.responsecode ?? '');
    }
    assert.deepEqual(codes, ['101', '180', '101', '180', '101']);
    assertRetryAfter(await ledgerCall(merchant.apiKey, address));
  });

  it('per address: the refund refusals (189 and 180, answered HTTP 200) count', async () => {
    const address = '198.51.100.35';
    const data = JSON.stringify({ merchantIdentifier: merchant.merchantIdentifier, orderDetail: { orderId: 'abuse-4' } });
    const refund = (fields: Record<string, string>) =>
      fetch(`${gw.baseUrl}/updateTxn`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(address) },
        body: new URLSearchParams(fields).toString(),
      });
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await refund(i % 2 === 0 ? { data } : { data, checksum: 'f'.repeat(64) });
      assert.equal(res.status, 200, `failure ${i + 1}`);
      codes.push(((await res.json()) as { responseCode: string }).responseCode);
    }
    assert.deepEqual(codes, ['189', '180', '189', '180', '189']);
    assertRetryAfter(await ledgerCall(merchant.apiKey, address));
  });

  it('per address: the legacy XML refusals (111 and 180, answered HTTP 200) count', async () => {
    const address = '198.51.100.36';
    const checkTransaction = (merchantIdentifier: string) =>
      fetch(`${gw.baseUrl}/checktransaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(address) },
        body: new URLSearchParams({ merchantIdentifier, orderId: 'abuse-5', mode: '0', checksum: 'f'.repeat(64) }).toString(),
      });
    const codes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await checkTransaction(i % 2 ? merchant.merchantIdentifier : 'nosuchmerchant0');
      assert.equal(res.status, 200, `failure ${i + 1}`);
      codes.push(/<responsecode>(\d+)<\/responsecode>/.exec(await res.text())?.[1] ?? '');
    }
    assert.deepEqual(codes, ['111', '180', '111', '180', '111']);
    assertRetryAfter(await ledgerCall(merchant.apiKey, address));
    // The lockout, answered before any operation reads the request, is the legacy XML too (a kit parses it).
    const locked = await checkTransaction(merchant.merchantIdentifier);
    assert.equal(locked.status, 429);
    assert.match(locked.headers.get('content-type') ?? '', /^text\/xml/);
    assert.match(await locked.text(), /<responsecode>2029<\/responsecode>/);
  });

  it('per address: the checkout entries alone (180 and 101, answered HTTP 200) count', async () => {
    const address = '198.51.100.32';
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...from(address) },
      body: new URLSearchParams(fields).toString(),
    });
    const express = (merchantIdentifier: string) =>
      fetch(
        `${gw.baseUrl}/api/paymentTransact/V8`,
        form({ merchantIdentifier, orderId: 'abuse-2', amount: '10000', checksum: 'f'.repeat(64) }),
      );
    for (let i = 0; i < 5; i++) {
      const res = await express(i % 2 ? merchant.merchantIdentifier : 'nosuchmerchant0');
      assert.equal(res.status, 200, `failure ${i + 1}`);
      assert.ok(['101', '180'].includes(((await res.json()) as { responseCode: string }).responseCode));
    }
    assertRetryAfter(await ledgerCall(merchant.apiKey, address));
  });

  it('per claimed merchant: past 3 failed checksums from anywhere, failures are 429; its signed calls still work', async () => {
    const body = { merchantIdentifier: merchant.merchantIdentifier, orderId: 'o2' };
    for (let i = 0; i < 3; i++) {
      assert.equal((await checkStatus(gw.baseUrl, 'wrong-secret', body, from(`203.0.113.${i + 1}`))).status, 401);
    }
    assertRetryAfter(await checkStatus(gw.baseUrl, 'wrong-secret', body, from('203.0.113.50')));
    const good = await checkStatus(gw.baseUrl, merchant.secretKey, body, from('203.0.113.51'));
    assert.equal(good.status, 200, 'the merchant is not locked out by someone claiming it');
    // Another merchant's failures are its own.
    const other = await gw.newMerchant('Other Shop');
    const otherBody = { merchantIdentifier: other.merchantIdentifier, orderId: 'o3' };
    assert.equal((await checkStatus(gw.baseUrl, 'wrong-secret', otherBody, from('203.0.113.60'))).status, 401);
  });

  it('hosted pages: per token past 4 requests a minute, per address past 6; bad tokens count too; never a 500', async () => {
    const res = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details: [linkEntry(), linkEntry()] });
    const [a, b] = (res.json.data as { link: string }[]).map((d) => linkPath(d.link));
    const open = (path: string, address: string) => fetch(`${gw.baseUrl}${path}`, { headers: from(address) });
    for (let i = 0; i < 4; i++) assert.equal((await open(a!, `192.0.2.${i + 1}`)).status, 200);
    assertRetryAfter(await open(a!, '192.0.2.9'));
    const pay = await fetch(`${gw.baseUrl}${a}/pay`, { method: 'POST', headers: from('192.0.2.10') });
    assertRetryAfter(pay);
    assert.equal((await open(b!, '192.0.2.11')).status, 200, 'another link is not limited');

    const address = '192.0.2.77';
    for (let i = 0; i < 6; i++) {
      const status = (await open(`/pl/${'A'.repeat(23)}${i}`, address)).status;
      assert.equal(status, 404);
    }
    assertRetryAfter(await open(b!, address));
  });
});
