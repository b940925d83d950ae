import { strict as assert } from 'node:assert';
import { formatIstDateTime } from '../../src/domain/ist-time';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { ledger, seedOrder } from '../support/ledger';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { refund, refundFinished } from '../support/refunds';

const HOUR = 3_600_000;
/** `yyyy-MM-dd HH:mm` in IST, as the ledger's date fields take it. */
const minute = (d: Date) => formatIstDateTime(d).slice(0, 16);
const day = (d: Date) => formatIstDateTime(d).slice(0, 10);
const orderIds = (res: { json: any }) => res.json.data.transactions.map((t: { orderId: string }) => t.orderId);

describe('Ledger: POST /api/v1/ledger', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  beforeEach(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Ledger'));
  });

  it('reports a paid card order with every field, its refund in flight and then done, in IST', async () => {
    const orderId = newOrderId('ledger');
    await sandboxPay(gw, {
      merchantIdentifier: merchant.merchantIdentifier,
      orderId,
      amount: 12_345,
      productDescription: 'Filter coffee',
      buyerName: 'Asha',
      buyerEmail: 'asha@example.in',
      cardNumber: '4012001037141112',
    });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    const today = day(new Date());
    const query = { startDateTime: today, endDateTime: today, status: 'ALL' };
    const paid = await ledger(gw, merchant.apiKey, query);
    assert.equal(paid.status, 200);
    assert.equal(paid.json.success, true);
    assert.equal(paid.json.data.isNextPageAvailable, false);
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.deepEqual(paid.json.data.transactions, [
      {
        txnInitiatedDate: formatIstDateTime(t!.createdAt),
        txnLastUpdatedDate: formatIstDateTime(t!.updatedAt),
        txnSuccessDate: formatIstDateTime(t!.successAt!),
        status: 'SUCCESS',
        state: 7,
        stateDescription: 'Captured',
        responseCode: 100,
        responseDescription: 'The transaction was completed successfully. ', // Zaakpay's text, its trailing space kept
        orderId,
        txnId: t!.txnId,
        amountInRupees: 123.45,
        brand: 'VISA',
        cardType: 'CREDIT',
        buyerName: 'Asha',
        buyerEmail: 'asha@example.in',
        bankName: t!.instrument.kind === 'CARD' ? t!.instrument.bankName : '',
        cardNumber: '401200XXXXXX1112',
        paymentSource: 'Card',
        refundDetail: null,
      },
    ]);

    // A partial refund: 22 while the bank has it, then Partially Refunded; refundDetail in rupees.
    await refund(gw, merchant, { orderId, updateDesired: '22', amount: '2345', merchantRefId: 'r-ledger-1' });
    const inFlight = (await ledger(gw, merchant.apiKey, query)).json.data.transactions[0];
    assert.deepEqual([inFlight.status, inFlight.state, inFlight.stateDescription], ['SUCCESS', 22, 'Partial Refund Initiated']);
    await refundFinished(gw, merchant.merchantIdentifier, orderId, 'r-ledger-1');
    const refunded = (await ledger(gw, merchant.apiKey, query)).json.data.transactions[0];
    assert.deepEqual([refunded.status, refunded.state], ['SUCCESS', 23]);
    const stored = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.deepEqual(refunded.refundDetail, [
      { refundReferenceNumber: 'r-ledger-1', createdAt: formatIstDateTime(stored!.refunds[0]!.createdAt), amount: 23.45 },
    ]);
  });

  it('selects by status and by initiation time, both ends inclusive to the minute, and defaults to page 1 of 1000', async () => {
    const base = new Date(Date.UTC(2026, 0, 10, 6, 30)); // 2026-01-10 12:00 IST
    const at = (minutes: number) => new Date(base.getTime() + minutes * 60_000);
    const m = merchant.merchantIdentifier;
    const ok = await seedOrder(gw, m, { createdAt: at(0) });
    const failed = await seedOrder(gw, m, { createdAt: at(1), status: 'Failure' });
    const pending = await seedOrder(gw, m, { createdAt: at(2), status: 'Pending' });
    const refundedFull = await seedOrder(gw, m, { createdAt: new Date(at(3).getTime() + 59_999), status: 'Refund' });
    await seedOrder(gw, m, { createdAt: at(4) }); // just after the range
    await seedOrder(gw, m, { createdAt: new Date(base.getTime() - 1) }); // just before it
    const range = { startDateTime: '2026-01-10 12:00', endDateTime: '2026-01-10 12:03' };

    const all = await ledger(gw, merchant.apiKey, { ...range, status: 'ALL' });
    assert.deepEqual(
      orderIds(all),
      [ok, failed, pending, refundedFull].map((t) => t.orderId),
    );
    assert.equal(all.json.data.isNextPageAvailable, false);
    for (const [status, expected] of [
      ['SUCCESS', [ok, refundedFull]],
      ['FAILED', [failed]],
      ['PENDING', [pending]],
    ] as const) {
      const res = await ledger(gw, merchant.apiKey, { ...range, status });
      assert.deepEqual(
        orderIds(res),
        expected.map((t) => t.orderId),
        status,
      );
    }
    const states = (await ledger(gw, merchant.apiKey, { ...range, status: 'ALL' })).json.data.transactions.map(
      (t: { status: string; state: number; stateDescription: string; txnSuccessDate: string | null }) => [
        t.status,
        t.state,
        t.stateDescription,
        t.txnSuccessDate === null,
      ],
    );
    assert.deepEqual(states, [
      ['SUCCESS', 7, 'Captured', false],
      ['FAILED', 6, 'Declined', true],
      ['PENDING', 2, 'Processing', true],
      ['SUCCESS', 24, 'Refunded', false],
    ]);
    // A date alone is the whole IST day.
    const wholeDay = await ledger(gw, merchant.apiKey, { startDateTime: '2026-01-10', endDateTime: '2026-01-10', status: 'ALL' });
    assert.equal(wholeDay.json.data.transactions.length, 6);
  });

  it('leaves delayed successes out unless includeDelayedSuccessTxn is true', async () => {
    const m = merchant.merchantIdentifier;
    const createdAt = new Date(Date.UTC(2026, 1, 3, 4, 0));
    const realtime = await seedOrder(gw, m, { createdAt });
    const delayed = await seedOrder(gw, m, { createdAt: new Date(createdAt.getTime() + 1000), delayedSuccess: true });
    const range = { startDateTime: '2026-02-03', endDateTime: '2026-02-03', status: 'SUCCESS' };
    assert.deepEqual(orderIds(await ledger(gw, merchant.apiKey, range)), [realtime.orderId]);
    assert.deepEqual(orderIds(await ledger(gw, merchant.apiKey, { ...range, includeDelayedSuccessTxn: false })), [
      realtime.orderId,
    ]);
    assert.deepEqual(orderIds(await ledger(gw, merchant.apiKey, { ...range, includeDelayedSuccessTxn: true })), [
      realtime.orderId,
      delayed.orderId,
    ]);
  });

  it('walks pages in a stable order while new payments arrive: no record repeated or skipped', async () => {
    const m = merchant.merchantIdentifier;
    const start = new Date(Date.now() - HOUR);
    const seeded = [];
    // Some share a millisecond: txnId decides between them.
    for (let i = 0; i < 23; i++)
      seeded.push(await seedOrder(gw, m, { createdAt: new Date(start.getTime() + Math.floor(i / 2) * 1000) }));
    const range = {
      startDateTime: minute(start),
      endDateTime: day(new Date(Date.now() + 48 * HOUR)),
      status: 'ALL',
      pageSize: 5,
    };
    const seen: string[] = [];
    let arrived = 0;
    for (let page = 1; page < 20; page++) {
      const res = await ledger(gw, merchant.apiKey, { ...range, pageNumber: page });
      assert.equal(res.status, 200);
      seen.push(...orderIds(res));
      // A new payment between page reads (initiated now: after every record already in the range).
      if (page <= 3) {
        const orderId = newOrderId('walk');
        await sandboxPay(gw, { merchantIdentifier: m, orderId, payerVpa: 'success@sandbox' });
        arrived++;
      }
      if (!res.json.data.isNextPageAvailable) break;
    }
    assert.equal(new Set(seen).size, seen.length, 'no record twice');
    assert.equal(seen.length, 23 + arrived, 'every record once, the new ones at the end');
    const expected = [...seeded]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.txnId < b.txnId ? -1 : 1))
      .map((t) => t.orderId);
    assert.deepEqual(seen.slice(0, 23), expected);
  });

  it('pageSize and pageNumber: exact pages, isNextPageAvailable only when a record follows', async () => {
    const m = merchant.merchantIdentifier;
    const createdAt = new Date(Date.UTC(2026, 2, 1, 5, 0));
    for (let i = 0; i < 4; i++) await seedOrder(gw, m, { createdAt: new Date(createdAt.getTime() + i * 1000) });
    const q = { startDateTime: '2026-03-01', endDateTime: '2026-03-01', status: 'ALL' };
    const pages = [];
    for (const pageNumber of [1, 2]) pages.push((await ledger(gw, merchant.apiKey, { ...q, pageSize: 2, pageNumber })).json.data);
    assert.deepEqual(
      pages.map((p) => [p.transactions.length, p.isNextPageAvailable]),
      [
        [2, true],
        [2, false],
      ],
    );
    // A page with no record is Zaakpay's 1035 (HTTP 200): merchants' paging loops stop on it.
    const beyond = await ledger(gw, merchant.apiKey, { ...q, pageSize: 2, pageNumber: 3 });
    assert.equal(beyond.status, 200);
    assert.deepEqual(beyond.json, { success: false, message: { code: '1035', text: 'No record found.' } });
    const single = (await ledger(gw, merchant.apiKey, { ...q, pageSize: 4 })).json.data;
    assert.deepEqual([single.transactions.length, single.isNextPageAvailable], [4, false]);
  });

  it('defaults to pages of 1000', async () => {
    const createdAt = Date.UTC(2026, 4, 1, 5, 0);
    for (let i = 0; i < 1001; i++) await seedOrder(gw, merchant.merchantIdentifier, { createdAt: new Date(createdAt + i) });
    const q = { startDateTime: '2026-05-01', endDateTime: '2026-05-01', status: 'ALL' };
    const first = (await ledger(gw, merchant.apiKey, q)).json.data;
    assert.deepEqual([first.transactions.length, first.isNextPageAvailable], [1000, true]);
    const second = (await ledger(gw, merchant.apiKey, { ...q, pageNumber: 2 })).json.data;
    assert.deepEqual([second.transactions.length, second.isNextPageAvailable], [1, false]);
  });

  it("answers only for the key's merchant, whatever it sends", async () => {
    const seeded = await seedOrder(gw, merchant.merchantIdentifier, { createdAt: new Date(Date.UTC(2026, 3, 1, 5, 0)) });
    const other = await gw.newMerchant('Other');
    const q = { startDateTime: '2026-04-01', endDateTime: '2026-04-01', status: 'ALL' };
    assert.deepEqual(orderIds(await ledger(gw, merchant.apiKey, q)), [seeded.orderId]);
    const others = await ledger(gw, other.apiKey, { ...q, merchantIdentifier: merchant.merchantIdentifier });
    assert.deepEqual([others.status, others.json.success, others.json.message.code], [200, false, '1035']);
  });

  // Zaakpay's published ledger codes (1026-1031); 2001 and 2002 only where Zaakpay has none.
  describe('bad input: the failure envelope and status, never a 500', () => {
    const valid = { startDateTime: '2026-01-10 12:00', endDateTime: '2026-01-10 13:00', status: 'ALL' };
    const cases: [string, object | string, number, string][] = [
      ['malformed JSON', '{"status":', 400, '2001'],
      ['a body that is not an object', '[1]', 400, '1026'],
      ['a missing startDateTime', { endDateTime: valid.endDateTime, status: 'ALL' }, 400, '1026'],
      ['a missing endDateTime', { startDateTime: valid.startDateTime, status: 'ALL' }, 400, '1026'],
      ['a missing status', { startDateTime: valid.startDateTime, endDateTime: valid.endDateTime }, 400, '1027'],
      ['a date in the wrong format', { ...valid, startDateTime: '10/01/2026 12:00' }, 400, '1028'],
      ['a date that does not exist', { ...valid, startDateTime: '2026-02-30 10:00' }, 400, '1028'],
      ['a time that does not exist', { ...valid, endDateTime: '2026-01-10 24:00' }, 400, '1028'],
      ['start after end', { ...valid, startDateTime: '2026-01-10 13:01' }, 400, '1031'],
      ['an unknown status', { ...valid, status: 'REFUNDED' }, 400, '1027'],
      ['pageSize 0', { ...valid, pageSize: 0 }, 400, '1029'],
      ['pageSize 10001', { ...valid, pageSize: 10_001 }, 400, '1030'],
      ['pageSize as a string', { ...valid, pageSize: '10' }, 400, '1029'],
      ['pageNumber 0', { ...valid, pageNumber: 0 }, 400, '1029'],
      ['a fractional pageNumber', { ...valid, pageNumber: 1.5 }, 400, '1029'],
      ['includeDelayedSuccessTxn as a string', { ...valid, includeDelayedSuccessTxn: 'true' }, 400, '2002'],
    ];
    for (const [what, body, status, code] of cases) {
      it(`${what}: ${status} with code ${code}`, async () => {
        const res = await ledger(gw, merchant.apiKey, body);
        assert.equal(res.status, status, res.text);
        assert.equal(res.json.success, false);
        assert.equal(res.json.message.code, code);
        assert.equal(typeof res.json.message.text, 'string');
      });
    }

    it('a missing API key is 100, a wrong one 112 (Zaakpay’s codes): 401, before the body is read', async () => {
      const missing = await ledger(gw, '', '{not json');
      assert.equal(missing.status, 401);
      assert.deepEqual(missing.json, { success: false, message: { code: '100', text: 'API key value can not be empty.' } });
      for (const key of ['not-a-key', `${merchant.apiKey}x`]) {
        const res = await ledger(gw, key, '{not json');
        assert.equal(res.status, 401);
        assert.deepEqual(res.json, { success: false, message: { code: '112', text: 'X-API-KEY not correct.' } });
      }
    });

    it("another method: 405 with Allow: POST in its envelope, the catalogue's 2041 (not one of the ledger's codes)", async () => {
      for (const path of ['/api/v1/ledger', '/API/V1/Ledger/']) {
        const res = await request(`${gw.baseUrl}${path}`, { method: 'GET' });
        assert.equal(res.status, 405, res.text);
        assert.equal(res.headers.get('allow'), 'POST');
        assert.deepEqual(res.json, { success: false, message: { code: '2041', text: 'Method not allowed' } });
      }
    });
  });
});
