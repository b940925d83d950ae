import { strict as assert } from 'node:assert';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

/**
 * The merchant's settlement list against the real gateway and store: settlements seeded as the
 * settlement engine writes them, answered with the webhook's figures, newest first, only the key's
 * merchant's, and every refusal in the `{success, message}` envelope.
 */
describe('Settlement list: POST /api/v1/settlements', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let other: MerchantCredentials;
  const list = (apiKey: string | null, body: string | object = {}) =>
    request(`${gw.baseUrl}/api/v1/settlements`, { body, headers: apiKey ? { 'x-api-key': apiKey } : {} });

  const settlement = (merchantIdentifier: string, settlementDate: string, o: Record<string, unknown>) => ({
    _id: `settlement:${merchantIdentifier}:${settlementDate}` as never,
    merchantIdentifier,
    settlementDate,
    lineCount: 2,
    grossPaise: 56890,
    refundsPaise: 0,
    chargebacksPaise: 0,
    feePaise: 1138,
    taxPaise: 205,
    carriedInPaise: -120,
    netPaise: 55427,
    carriedOutPaise: 0,
    createdAt: new Date(),
    ...o,
  });

  before(async () => {
    gw = await sharedGateway();
    merchant = await gw.newMerchant('Settled Shop');
    other = await gw.newMerchant('Other Settled Shop');
    await gw.rt.store.db.collection('settlements').insertMany([
      settlement(merchant.merchantIdentifier, '2026-11-24', {
        state: 'paid',
        utr: 'UTR2611240001',
        paidAt: new Date('2026-11-24T03:30:07Z'), // 09:00:07 IST
      }),
      settlement(merchant.merchantIdentifier, '2026-11-25', { state: 'open' }),
      settlement(other.merchantIdentifier, '2026-11-26', { state: 'open' }),
    ]);
  });

  const idOf = (m: MerchantCredentials, date: string) => `settlement:${m.merchantIdentifier}:${date}`;
  const paid = {
    settlementId: '',
    settlementDate: '24-11-2026',
    state: 'paid',
    utr: 'UTR2611240001',
    paidAt: '2026-11-24 09:00:07',
    transactionCount: '2',
    grossAmount: '568.90',
    refundAmount: '0.00',
    chargebackAmount: '0.00',
    feeAmount: '11.38',
    taxAmount: '2.05',
    carriedInAmount: '-1.20',
    netAmount: '554.27',
  };
  const open = { ...paid, settlementDate: '25-11-2026', state: 'open', utr: '', paidAt: '' };
  const withIds = (m: MerchantCredentials) => ({
    paid: { ...paid, settlementId: idOf(m, '2026-11-24') },
    open: { ...open, settlementId: idOf(m, '2026-11-25') },
  });

  it("answers the key's merchant's settlements, newest first, with their figures; another merchant's never", async () => {
    const res = await list(merchant.apiKey);
    assert.equal(res.status, 200, res.text);
    const mine = withIds(merchant);
    assert.deepEqual(res.json, { success: true, data: { settlements: [mine.open, mine.paid] } });
    const others = await list(other.apiKey);
    assert.deepEqual(others.json, {
      success: true,
      data: { settlements: [{ ...open, settlementId: idOf(other, '2026-11-26'), settlementDate: '26-11-2026' }] },
    });
  });

  it('answers at most `count` of them; a field it does not know is ignored, as by every merchant API', async () => {
    const res = await list(merchant.apiKey, { count: 1, page: 2 });
    assert.deepEqual(res.json, { success: true, data: { settlements: [withIds(merchant).open] } });
  });

  it('authenticates before reading the body: no key or a wrong one is 401 (2013), even for a body that is not JSON', async () => {
    for (const key of [null, 'mgw_wrong']) {
      const res = await list(key, '{not json');
      assert.equal(res.status, 401, res.text);
      assert.deepEqual(res.json, { success: false, message: { code: '2013', text: 'API key is missing or invalid' } });
    }
  });

  it('refuses with 400 in the success envelope a count out of range or not an integer, and a body that is not JSON', async () => {
    for (const body of [{ count: 0 }, { count: 101 }, { count: 2.5 }, { count: '5' }]) {
      const res = await list(merchant.apiKey, body);
      assert.equal(res.status, 400, res.text);
      const message = (res.json as { success: boolean; message: { code: string } }).message;
      assert.equal(message.code, '2002', res.text);
    }
    const broken = await list(merchant.apiKey, '{not json');
    assert.equal(broken.status, 400);
    assert.equal((broken.json as { message: { code: string } }).message.code, '2001');
  });
});
