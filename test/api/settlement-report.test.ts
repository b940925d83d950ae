import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

/**
 * Zaakpay's Settlement API against the real gateway and store: settlement lines seeded as the
 * settlement engine writes them (the shared data contract), the checksum computed here from the
 * string Zaakpay documents, and the answer compared byte for byte.
 */
describe("Zaakpay's Settlement API: POST /api/v2/getSettlementReport", function () {
  this.timeout(60_000);
  let gw: TestGateway;
  const url = () => `${gw.baseUrl}/api/v2/getSettlementReport`;
  // Zaakpay's documented checksum string: merchantIdentifier,utr_date (comma, no quotes).
  const sign = (m: MerchantCredentials, utrDate: string) =>
    createHmac('sha256', m.secretKey).update(`${m.merchantIdentifier},${utrDate}`).digest('hex');
  const ask = (m: MerchantCredentials, utrDate: string) =>
    request(url(), {
      body: `{"merchantIdentifier":"${m.merchantIdentifier}","utr_date":"${utrDate}","checksum":"${sign(m, utrDate)}"}`,
    });

  before(async () => {
    gw = await sharedGateway();
  });

  async function seed(m: MerchantCredentials) {
    const settlementId = `settlement:${m.merchantIdentifier}:2026-11-24`;
    const line = (o: Record<string, unknown>) => ({
      settlementId,
      merchantIdentifier: m.merchantIdentifier,
      settlementDate: '2026-11-24',
      ...o,
    });
    await gw.rt.store.db.collection('settlement_lines').insertMany([
      line({
        _id: `SALE:T1:${m.merchantIdentifier}` as never,
        txnId: 'T1',
        orderId: 'order-1',
        action: 'SALE',
        txnDate: new Date('2026-11-21T15:29:01Z'), // 20:59:01 IST
        amountPaise: 31890,
        feePaise: 638,
        taxPaise: 115,
        settlementAmountPaise: 31137,
        rrn: '611234567890',
      }),
      line({
        _id: `REFUND:R1:${m.merchantIdentifier}` as never,
        txnId: 'T0',
        orderId: 'order-0',
        action: 'REFUND',
        txnDate: new Date('2026-11-20T20:49:58Z'), // 02:19:58 IST on the 21st
        amountPaise: 5,
        feePaise: 0,
        taxPaise: 0,
        settlementAmountPaise: -5,
        arn: '85215228021802487698337',
      }),
      line({
        _id: `CHARGEBACK:T4:${m.merchantIdentifier}` as never,
        txnId: 'T4',
        orderId: 'order-4',
        action: 'CHARGEBACK',
        txnDate: new Date('2026-11-22T04:30:00Z'), // 10:00:00 IST
        amountPaise: 20000,
        feePaise: 0,
        taxPaise: 0,
        settlementAmountPaise: -20000,
      }),
      // A refund that returns the sale's fee (the plan says so): stored with negative fee and tax.
      line({
        _id: `REFUND:R5:${m.merchantIdentifier}` as never,
        txnId: 'T5',
        orderId: 'order-5',
        action: 'REFUND',
        txnDate: new Date('2026-11-22T05:30:00Z'), // 11:00:00 IST
        amountPaise: 50000,
        feePaise: -1000,
        taxPaise: -180,
        settlementAmountPaise: -48820,
      }),
      // Another date and another merchant's line of the same date stay out.
      line({
        _id: `SALE:T2:${m.merchantIdentifier}` as never,
        txnId: 'T2',
        orderId: 'o2',
        action: 'SALE',
        txnDate: new Date(),
        amountPaise: 100,
        feePaise: 0,
        taxPaise: 0,
        settlementAmountPaise: 100,
        settlementDate: '2026-11-25',
      }),
      line({
        _id: `SALE:T3:other${m.merchantIdentifier}` as never,
        merchantIdentifier: `other${m.merchantIdentifier}`,
        txnId: 'T3',
        orderId: 'o3',
        action: 'SALE',
        txnDate: new Date(),
        amountPaise: 100,
        feePaise: 0,
        taxPaise: 0,
        settlementAmountPaise: 100,
      }),
    ]);
    // The UTR is on the paid settlement only: each line's transaction_utr is read from it.
    await gw.rt.store.db.collection('settlements').insertOne({
      _id: settlementId as never,
      merchantIdentifier: m.merchantIdentifier,
      settlementDate: '2026-11-24',
      state: 'paid',
      utr: 'UTR0000123',
    });
  }

  it('answers the lines of the UTR date with 100, exactly as Zaakpay formats them: every amount positive, settlement_action the direction', async () => {
    const m = await gw.newMerchant();
    await seed(m);
    const res = await ask(m, '24-11-2026');
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(
      res.text,
      JSON.stringify({
        report: [
          {
            partner_transaction_id: 'T0',
            client_transaction_id: 'order-0',
            txn_date: '2026-11-21 02:19:58',
            amount: '0.05',
            settlement_date: '2026-11-24',
            settlement_action: 'REFUND',
            transaction_utr: 'UTR0000123',
            partner_service_fee: '0.00',
            partner_service_tax: '0.00',
            settlement_amount: '0.05',
            rrn: '',
            arn: '85215228021802487698337',
          },
          {
            partner_transaction_id: 'T1',
            client_transaction_id: 'order-1',
            txn_date: '2026-11-21 20:59:01',
            amount: '318.90',
            settlement_date: '2026-11-24',
            settlement_action: 'SALE',
            transaction_utr: 'UTR0000123',
            partner_service_fee: '6.38',
            partner_service_tax: '1.15',
            settlement_amount: '311.37',
            rrn: '611234567890',
            arn: '',
          },
          {
            partner_transaction_id: 'T4',
            client_transaction_id: 'order-4',
            txn_date: '2026-11-22 10:00:00',
            amount: '200.00',
            settlement_date: '2026-11-24',
            settlement_action: 'CHARGEBACK',
            transaction_utr: 'UTR0000123',
            partner_service_fee: '0.00',
            partner_service_tax: '0.00',
            settlement_amount: '200.00',
            rrn: '',
            arn: '',
          },
          {
            partner_transaction_id: 'T5',
            client_transaction_id: 'order-5',
            txn_date: '2026-11-22 11:00:00',
            amount: '500.00',
            settlement_date: '2026-11-24',
            settlement_action: 'REFUND',
            transaction_utr: 'UTR0000123',
            partner_service_fee: '10.00',
            partner_service_tax: '1.80',
            settlement_amount: '488.20',
            rrn: '',
            arn: '',
          },
        ],
        responsecode: '100',
        responsedescription: 'Successful',
      }),
    );
  });

  it('answers an empty report with 100 for a date without a settlement', async () => {
    const m = await gw.newMerchant();
    const res = await ask(m, '01-01-2026');
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { report: [], responsecode: '100', responsedescription: 'Successful' });
  });

  it('refuses with HTTP 200 as Zaakpay answers: 101 unknown merchant, 180 checksum, 109 bad date; never a 500', async () => {
    const m = await gw.newMerchant();
    await seed(m);
    const send = (body: string, headers: Record<string, string> = {}) => request(url(), { body, headers });
    const codeOf = async (body: string, status: number, code: string) => {
      const res = await send(body);
      assert.equal(res.status, status, `${body}: ${res.text}`);
      assert.equal(res.json.responsecode, code, body);
      assert.deepEqual(res.json.report, [], 'a refusal carries no line');
    };
    const mi = m.merchantIdentifier;
    const good = sign(m, '24-11-2026');
    await codeOf(`{"merchantIdentifier":"nosuchmerchant1","utr_date":"24-11-2026","checksum":"${good}"}`, 200, '101');
    await codeOf(`{"utr_date":"24-11-2026","checksum":"${good}"}`, 200, '101');
    await codeOf(`{"merchantIdentifier":42,"utr_date":"24-11-2026","checksum":"${good}"}`, 200, '101');
    await codeOf(`[]`, 200, '101');
    await codeOf(
      `{"merchantIdentifier":"${mi}","utr_date":"24-11-2026","checksum":"${good.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}"}`,
      200,
      '180',
    );
    await codeOf(`{"merchantIdentifier":"${mi}","utr_date":"24-11-2026"}`, 200, '180');
    // The checksum of another string (Zaakpay's other APIs sign the body): refused.
    await codeOf(
      `{"merchantIdentifier":"${mi}","utr_date":"24-11-2026","checksum":"${createHmac('sha256', m.secretKey).update(`${mi}24-11-2026`).digest('hex')}"}`,
      200,
      '180',
    );
    // The right string signed with another merchant's secret key.
    const other = await gw.newMerchant();
    const othersKey = createHmac('sha256', other.secretKey).update(`${mi},24-11-2026`).digest('hex');
    await codeOf(`{"merchantIdentifier":"${mi}","utr_date":"24-11-2026","checksum":"${othersKey}"}`, 200, '180');
    for (const bad of ['2026-11-24', '31-02-2026', '24/11/2026', '4-11-2026', '00-11-2026', '24-13-2026', '']) {
      const body = `{"merchantIdentifier":"${mi}","utr_date":"${bad}","checksum":"${sign(m, bad)}"}`;
      await codeOf(body, 200, '109');
    }
    await codeOf(`{"merchantIdentifier":"${mi}","utr_date":24112026,"checksum":"${good}"}`, 200, '109');
    const notJson = await send('{"merchantIdentifier":');
    assert.equal(notJson.status, 200);
    assert.equal(notJson.json.responsecode, '2001');
    const form = await send('merchantIdentifier=x', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(form.status, 415);
    assert.equal(form.json.responsecode, '2003');
  });

  it('allows two calls an hour per merchant: the third gets 2029 with Retry-After, other merchants are not affected', async () => {
    const m = await gw.newMerchant();
    await seed(m);
    // Refusals do not count.
    await request(url(), {
      body: `{"merchantIdentifier":"${m.merchantIdentifier}","utr_date":"24-11-2026","checksum":"${'0'.repeat(64)}"}`,
    });
    assert.equal((await ask(m, '24-11-2026')).json.responsecode, '100');
    assert.equal((await ask(m, '25-11-2026')).json.responsecode, '100');
    const third = await ask(m, '24-11-2026');
    assert.equal(third.status, 429, third.text);
    assert.deepEqual(third.json, {
      report: [],
      responsecode: '2029',
      responsedescription: 'API limit exhausted: at most 2 calls an hour',
    });
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter > 3000 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    const other = await gw.newMerchant();
    assert.equal((await ask(other, '24-11-2026')).status, 200);
  });
});
