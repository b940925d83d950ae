import { strict as assert } from 'node:assert';
import { faultRuleSchema, type FaultRuleInput } from '../../src/bank/simulator/faults';
import type { BankSimulator } from '../../src/bank/simulator/server';
import { signBankRequest } from '../../src/bank/signing';
import { PaymentResponse } from '../../src/domain/response-codes';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { createLinks, linkEntry, linkPath, newBatchId, openLink, payByCard } from '../support/payment-links';
import { createData, transactU } from '../support/mandates';
import { refund, refundFinished } from '../support/refunds';

/**
 * The http connector against the bank simulator across loopback, one fault at a time. Money is
 * always read from the simulator's own books (what the bank holds), beside what the gateway shows.
 */
describe('Bank over HTTP: the http connector against the bank simulator', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let sim: BankSimulator & { secret?: string };
  let merchant: MerchantCredentials;
  let m: string;

  before(async () => {
    gw = await startTestGateway({}, { bank: 'simulator' });
    sim = gw.bank!;
  });
  beforeEach(async () => {
    merchant = await gw.newMerchant('Bank Fault Merchant');
    m = merchant.merchantIdentifier;
  });

  const fault = (rule: FaultRuleInput) =>
    sim.faults.add(faultRuleSchema.parse({ ...rule, match: { merchantIdentifier: m, ...rule.match } }));
  const books = () => sim.books.snapshot(m);
  async function pay(body: Record<string, unknown>) {
    const orderId = newOrderId();
    const res = await sandboxPay(gw, { merchantIdentifier: m, orderId, ...body });
    assert.equal(res.status, 202, res.text);
    await paymentFinished(gw, m, orderId);
    return { orderId, txnId: res.json.data.txnId as string, t: (await storedTransaction(gw, m, orderId))! };
  }

  it('pays through the bank: the gateway and the bank agree to the paisa', async () => {
    const { t } = await pay({ payerVpa: 'success@sandbox', amount: 12_345 });
    assert.equal(t.status, 'Success');
    const b = books();
    assert.equal(b.totals.payments, 1);
    assert.equal(b.totals.paidPaise, 12_345);
    assert.equal(b.payments[0]!.request.txnId, t.txnId);
    assert.equal(b.payments[0]!.answer.bankRefNum, t.bankRefNum, 'the reference the bank gave is the one recorded');
    assert.equal(b.totals.repeatedRequests, 0);
  });

  it('declines and the minimum amount come from the bank', async () => {
    const declined = await pay({ payerVpa: 'failure@sandbox' });
    const small = await pay({ payerVpa: 'success@sandbox', amount: 899 });
    assert.equal(declined.t.responseCode, PaymentResponse.declinedByBank.code);
    assert.equal(small.t.responseCode, PaymentResponse.belowMinimum.code);
    assert.equal(books().totals.paidPaise, 0);
    assert.equal(books().totals.declined, 2);
  });

  it('a payment committed by the bank whose answer was lost (connection dropped) is paid exactly once', async () => {
    fault({ match: { operation: 'payment' }, fault: { kind: 'drop', afterCommit: true }, times: 2 });
    const { t } = await pay({ payerVpa: 'success@sandbox' });
    assert.equal(t.status, 'Success');
    const b = books();
    assert.equal(b.totals.payments, 1, 'one payment at the bank');
    assert.equal(b.payments[0]!.requests, 3, 'two retries after the dropped answers');
    assert.equal(b.totals.paidPaise, 10_000);
  });

  it('a 5xx before the bank commits, and a 5xx after it did, are retried into one payment', async () => {
    fault({ match: { operation: 'payment' }, fault: { kind: 'error', status: 503, afterCommit: false }, times: 1 });
    fault({ match: { operation: 'payment' }, fault: { kind: 'error', status: 502, afterCommit: true }, times: 1 });
    const { t } = await pay({ payerVpa: 'success@sandbox' });
    assert.equal(t.status, 'Success');
    assert.equal(books().totals.paidPaise, 10_000);
    assert.equal(books().payments[0]!.requests, 2, 'the first 503 never reached the books');
  });

  it('a bank slower than the call timeout is asked again, and pays once', async () => {
    const slow = await startTestGateway({ BANK_CALL_TIMEOUT_SECONDS: '0.5' }, { bank: 'simulator' });
    try {
      const merchant2 = await slow.newMerchant('Slow Bank Merchant');
      sim.faults.add(
        faultRuleSchema.parse({
          match: { merchantIdentifier: merchant2.merchantIdentifier },
          fault: { kind: 'latency', ms: 1200 },
          times: 1,
        }),
      );
      const orderId = newOrderId();
      await sandboxPay(slow, { merchantIdentifier: merchant2.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
      await paymentFinished(slow, merchant2.merchantIdentifier, orderId);
      assert.equal((await storedTransaction(slow, merchant2.merchantIdentifier, orderId))?.status, 'Success');
      const b = sim.books.snapshot(merchant2.merchantIdentifier);
      assert.equal(b.totals.paidPaise, 10_000);
      assert.equal(b.payments[0]!.requests, 2);
    } finally {
      await slow.stop();
    }
  });

  it('a silent bank gets one status inquiry, then the payment fails with 1023', async () => {
    const { t } = await pay({ payerVpa: 'noanswer@sandbox' });
    assert.equal(t.status, 'Failure');
    assert.equal(t.responseCode, PaymentResponse.bankNoAnswer.code);
    assert.equal(t.markedFailedByService, true);
    const b = books();
    assert.equal(b.payments[0]!.inquiries, 1, 'asked exactly once');
    assert.equal(b.totals.paidPaise, 0);
  });

  it('a bank that committed but never called back is found by the status inquiry: Success, not 1023', async () => {
    fault({ match: { operation: 'payment' }, fault: { kind: 'lostCallback' } });
    const { t } = await pay({ payerVpa: 'success@sandbox' });
    assert.equal(t.status, 'Success');
    assert.equal(t.markedFailedByService, false);
    assert.equal(t.bankRefNum, books().payments[0]!.answer.bankRefNum);
    assert.equal(books().payments[0]!.inquiries, 1);
  });

  it('a late answer arrives by callback before the timeout', async () => {
    fault({ match: { operation: 'payment' }, fault: { kind: 'late', ms: 300 } });
    const { t } = await pay({ payerVpa: 'success@sandbox' });
    assert.equal(t.status, 'Success');
    await sim.idle();
    const b = books();
    assert.equal(b.callbacks.length, 1);
    assert.equal(b.callbacks[0]!.state, 'delivered');
    assert.equal(b.payments[0]!.inquiries, 0, 'no inquiry: the callback came in time');
  });

  it('a callback after 1023 still makes the payment a delayed success', async () => {
    const { t, orderId } = await pay({ payerVpa: 'noanswer@sandbox' });
    assert.equal(t.responseCode, PaymentResponse.bankNoAnswer.code);
    const settle = await request(`${sim.url}/admin/payments/${t.txnId}/settle`, {
      body: { approved: true },
      headers: { authorization: `Bearer ${sim.adminToken}` },
    });
    assert.equal(settle.status, 200, settle.text);
    await sim.idle();
    assert.match(books().callbacks[0]!.attempts.at(-1)!.body ?? '', /delayedSuccess/);
    const after = await until(async () => {
      const s = await storedTransaction(gw, m, orderId);
      return s?.status === 'Success' ? s : undefined;
    });
    assert.equal(after.delayedSuccess, true);
    assert.equal(books().totals.paidPaise, 10_000);
  });

  it('DELETE /admin/faults/:id removes that fault alone; the others stay armed', async () => {
    const admin = { authorization: `Bearer ${sim.adminToken}` };
    const add = async (merchantIdentifier: string) =>
      (
        await request(`${sim.url}/admin/faults`, {
          body: { match: { merchantIdentifier }, fault: { kind: 'silence' } },
          headers: admin,
        })
      ).json as { id: string };
    const [first, second] = [await add('nobody-one'), await add('nobody-two')];
    const removed = await request(`${sim.url}/admin/faults/${first.id}`, { method: 'DELETE', headers: admin });
    assert.equal(removed.status, 204, removed.text);
    const left = (
      (await request(`${sim.url}/admin/faults`, { method: 'GET', headers: admin })).json as { faults: { id: string }[] }
    ).faults;
    assert.deepEqual(
      left.map((f) => f.id).filter((id) => id === first.id || id === second.id),
      [second.id],
    );
    await request(`${sim.url}/admin/faults/${second.id}`, { method: 'DELETE', headers: admin });
  });

  it('card and net banking go through the bank page (REDIRECT) and end by callback', async () => {
    const card = await pay({ cardNumber: '4012001037141112' });
    const declinedCard = await pay({ cardNumber: '4000000000000002' });
    const netbanking = await pay({ bankCode: 'SBIN' });
    assert.equal(card.t.status, 'Success');
    assert.equal(declinedCard.t.status, 'Failure');
    assert.equal(netbanking.t.status, 'Success');
    const b = books();
    assert.ok(b.payments.every((p) => p.request.instrument.type === 'CARD' || p.request.instrument.type === 'NETBANKING'));
    assert.equal(JSON.stringify(b.payments).includes('4012001037141112'), false, 'no card number went to the bank');
    assert.equal(b.totals.paidPaise, 20_000);
  });

  it('a payment link paid by card: the payer types the card on the bank page, never on ours, and comes back', async () => {
    const entry = linkEntry({ amount: 250 });
    const created = await createLinks(gw, merchant.apiKey, { batchId: newBatchId(), details: [entry] });
    const path = linkPath(created.json.data[0].link);
    const page = await openLink(gw, path);
    assert.doesNotMatch(page.html, /name="cardNumber"/, 'no card number field on a page of ours');
    const back = await payByCard(gw, path, page, '4012001037141112');
    await paymentFinished(gw, m, entry.orderId as string);
    const returnUrl = back.headers.get('location')!;
    const returned = await request(returnUrl);
    assert.equal(returned.status, 200);
    assert.match(returned.text, /Payment received/);
    const guessed = await request(returnUrl.replace(/\/[^/]+$/, '/ZZZZZZZZZZZZZZZZ'));
    assert.equal(guessed.status, 404, 'another txnId shows nothing');
    const t = await storedTransaction(gw, m, entry.orderId as string);
    assert.equal(t?.status, 'Success');
    assert.deepEqual(t?.instrument, {
      kind: 'CARD',
      cardToken: '401200XXXXXX1112',
      cardId: 'NA',
      brand: 'VISA',
      cardType: 'CREDIT',
      bankName: 'HDFC Bank',
    });
    assert.equal(books().totals.paidPaise, 25_000);
    assert.equal(books().payments[0]!.request.returnUrl, back.headers.get('location'));
  });

  it('a duplicate callback changes nothing', async () => {
    fault({ match: { operation: 'payment' }, fault: { kind: 'duplicateCallback', copies: 2 } });
    const { orderId } = await pay({ cardNumber: '4012001037141112' });
    await sim.idle();
    const after = await storedTransaction(gw, m, orderId);
    const b = books();
    assert.equal(b.callbacks.length, 3);
    assert.ok(b.callbacks.every((c) => c.state === 'delivered'));
    assert.match(b.callbacks.at(-1)!.attempts.at(-1)!.body ?? '', /"result":"(unchanged|delivered)"/);
    assert.equal(after?.status, 'Success');
    assert.equal(b.totals.paidPaise, 10_000);
    // Nothing moves afterwards either: the same document, version and all.
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await storedTransaction(gw, m, orderId), after);
  });

  it('an out-of-order callback cannot move a final payment', async () => {
    fault({ match: { operation: 'payment' }, fault: { kind: 'outOfOrderCallback' } });
    const { orderId } = await pay({ bankCode: 'SBIN' });
    await sim.idle();
    const b = books();
    const stale = b.callbacks.find((c) => c.reason === 'outOfOrder')!;
    assert.equal(stale.callback.type === 'payment' && stale.callback.status, 'DECLINED');
    assert.equal(stale.state, 'delivered');
    // Delivered to a workflow that took the bank's first word already, or answered unchanged once recorded.
    assert.match(stale.attempts.at(-1)!.body ?? '', /"result":"(unchanged|delivered)"/);
    const t = await storedTransaction(gw, m, orderId);
    assert.equal(t?.status, 'Success');
  });

  it('a refund retried after a 5xx (the bank had committed) is refunded once', async () => {
    const { orderId } = await pay({ payerVpa: 'success@sandbox' });
    fault({ match: { operation: 'refund' }, fault: { kind: 'error', status: 500, afterCommit: true }, times: 2 });
    const res = await refund(gw, merchant, { orderId, merchantRefId: 'r-1' });
    assert.equal(res.json.responseCode, '230', res.text);
    const recorded = await refundFinished(gw, m, orderId, 'r-1');
    assert.equal(recorded.refundStatus, 'SUCCESS');
    const b = books();
    assert.equal(b.totals.refunds, 1);
    assert.equal(b.refunds[0]!.requests, 3);
    assert.equal(b.totals.refundedPaise, 10_000);
    assert.equal((await storedTransaction(gw, m, orderId))?.refunds[0]?.rrn, b.refunds[0]!.answer.rrn);
  });

  it('a refund the bank settles later is read again until final', async () => {
    const { orderId } = await pay({ payerVpa: 'success@sandbox', amount: 5_000 });
    fault({ match: { operation: 'refund' }, fault: { kind: 'late', ms: 400 } });
    await refund(gw, merchant, { orderId, merchantRefId: 'r-late', updateDesired: '22', amount: '2000' });
    const recorded = await refundFinished(gw, m, orderId, 'r-late');
    assert.equal(recorded.refundStatus, 'SUCCESS');
    assert.equal(books().totals.refundedPaise, 2_000);
    await sim.idle();
    assert.match(books().callbacks[0]!.attempts.at(-1)!.body ?? '', /"result":"acknowledged"/);
  });

  describe('POST /bank/v1/callbacks refuses what does not check out, never with a 500', () => {
    let paid: { orderId: string; txnId: string };
    let cm: string;
    before(async () => {
      cm = (await gw.newMerchant('Callback Merchant')).merchantIdentifier;
      const orderId = newOrderId();
      const res = await sandboxPay(gw, { merchantIdentifier: cm, orderId, payerVpa: 'success@sandbox' });
      await paymentFinished(gw, cm, orderId);
      paid = { orderId, txnId: res.json.data.txnId };
    });
    const callback = (over: Record<string, unknown> = {}) => ({
      type: 'payment',
      eventId: 'evt-test',
      txnId: paid.txnId,
      merchantIdentifier: cm,
      orderId: paid.orderId,
      amountPaise: 10_000,
      status: 'DECLINED',
      responseCode: '05',
      responseDescription: 'Do not honour',
      bankRefNum: null,
      authCode: null,
      ...over,
    });
    const post = (body: unknown, o: { secret?: string; at?: Date; raw?: string; headers?: Record<string, string> } = {}) => {
      const raw = o.raw ?? JSON.stringify(body);
      return request(`${gw.baseUrl}/bank/v1/callbacks`, {
        body: raw,
        headers: { ...signBankRequest(o.secret ?? gw.rt.config.bank.secret!, raw, o.at ?? new Date()), ...o.headers },
      });
    };

    const cases: [string, () => ReturnType<typeof post>, number, RegExp][] = [
      ['a forged signature', () => post(callback(), { secret: 'x'.repeat(64) }), 401, /2017/],
      ['a stale timestamp (6 minutes old)', () => post(callback(), { at: new Date(Date.now() - 6 * 60_000) }), 401, /stale/],
      ['a timestamp from the future', () => post(callback(), { at: new Date(Date.now() + 6 * 60_000) }), 401, /stale/],
      ['no signature', () => request(`${gw.baseUrl}/bank/v1/callbacks`, { body: callback() }), 401, /missing/],
      ['another amount', () => post(callback({ amountPaise: 10_001 })), 409, /2046/],
      ['another merchant', () => post(callback({ merchantIdentifier: 'f'.repeat(32) })), 404, /2045/],
      ['another txnId for the order', () => post(callback({ txnId: 'ZZZZZZZZZZZZZZZZ' })), 409, /2046/],
      ['an unknown txnId', () => post(callback({ txnId: 'ZZZZZZZZZZZZZZZZ', orderId: undefined })), 404, /2045/],
      ['malformed JSON', () => post(undefined, { raw: '{"type":' }), 400, /2001/],
      ['an unknown type', () => post(callback({ type: 'chargeback' })), 400, /2002/],
      ['a negative amount', () => post(callback({ amountPaise: -5 })), 400, /2002/],
      ['an unknown field', () => post(callback({ extra: 1 })), 400, /2002/],
      [
        'form-encoded',
        () => post(undefined, { raw: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
        415,
        /2003/,
      ],
      [
        'a refund of another order',
        () =>
          post({
            type: 'refund',
            eventId: 'e',
            refundId: `${paid.txnId}:nope`,
            txnId: paid.txnId,
            amountPaise: 1,
            status: 'APPROVED',
            rrn: null,
          }),
        404,
        /2045/,
      ],
      [
        'an unknown mandate',
        () => post({ type: 'mandate', eventId: 'e', mandateId: `${cm}:none`, status: 'APPROVED' }),
        404,
        /2045/,
      ],
    ];
    for (const [name, send, status, body] of cases) {
      it(`${name}: ${status}, nothing changes`, async () => {
        const before = await storedTransaction(gw, cm, paid.orderId);
        const res = await send();
        assert.equal(res.status, status, res.text);
        assert.equal(res.json.success, false);
        assert.match(res.text, body);
        assert.deepEqual(await storedTransaction(gw, cm, paid.orderId), before);
      });
    }

    it('a debit callback whose debitId itself ends in R and digits is that debit, not a retry of another', async () => {
      const mm = await gw.newMerchant('Debit Callback Merchant');
      /** A mandate whose first debit of `amountPaise` has been paid: its orderId and the debit's txnId. */
      async function paidFirstDebit(amountPaise: number) {
        const orderId = newOrderId('mandate');
        const created = await transactU(
          gw.baseUrl,
          mm,
          createData(mm, { orderId, today: new Date(), firstDebit: true, firstDebitAmount: amountPaise }),
        );
        assert.equal(created.json.responseCode, '1101', created.text);
        const ref = { merchantIdentifier: mm.merchantIdentifier, orderId: `${orderId}-first` };
        let first = await gw.rt.transactions.findByOrder(ref);
        for (let i = 0; i < 300 && first?.status !== 'Success'; i++) {
          await new Promise((r) => setTimeout(r, 100));
          first = await gw.rt.transactions.findByOrder(ref);
        }
        assert.equal(first?.status, 'Success', 'the first debit is paid');
        return { orderId, txnId: first.txnId };
      }
      const [a, b] = await Promise.all([paidFirstDebit(10_000), paidFirstDebit(20_000)]);
      // A txnId is 8 base36 characters of time and 12 hex: one whose time part ends in R and whose
      // hex part is all digits reads like a retry (`<txnId>R<n>`) of the id before the R. Debit a
      // takes such an id, and debit b (another mandate, another amount) the id before its R.
      const shaped = `${a.txnId.slice(0, 7)}R${'4'.repeat(12)}`;
      const stripped = shaped.replace(/R\d+$/, '');
      const transactions = gw.rt.store.db.collection('transactions');
      await transactions.updateOne({ txnId: a.txnId }, { $set: { txnId: shaped } });
      await transactions.updateOne({ txnId: b.txnId }, { $set: { txnId: stripped } });
      const debitCallback = (debitId: string, of: { orderId: string }, amountPaise: number) => ({
        type: 'debit',
        eventId: `evt-${debitId}`,
        mandateId: `${mm.merchantIdentifier}:${of.orderId}`,
        debitId,
        amountPaise,
        status: 'APPROVED',
        bankRefNum: '123456789012',
      });
      // Each is read as its own debit (its mandate and amount check out), and a retry of each as it.
      for (const [debitId, of, amount] of [
        [shaped, a, 10_000],
        [`${shaped}R1`, a, 10_000],
        [stripped, b, 20_000],
        [`${stripped}R2`, b, 20_000],
      ] as const) {
        const res = await post(debitCallback(debitId, of, amount));
        assert.equal(res.status, 200, `${debitId}: ${res.text}`);
        assert.deepEqual(res.json, { success: true, data: { result: 'acknowledged' } });
      }
      const wrong = await post(debitCallback(shaped, b, 20_000));
      assert.equal(wrong.status, 409, `${shaped} is not a debit of b's mandate: ${wrong.text}`);
      const unknown = await post(debitCallback(`${'Z'.repeat(7)}R${'4'.repeat(12)}`, a, 10_000));
      assert.equal(unknown.status, 404, unknown.text);
      assert.match(unknown.text, /2045/);
    });

    it('a genuine late callback contradicting a final payment is answered 200 unchanged', async () => {
      const before = await storedTransaction(gw, cm, paid.orderId);
      const res = await post(callback());
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { success: true, data: { result: 'unchanged' } });
      assert.deepEqual(await storedTransaction(gw, cm, paid.orderId), before);
    });
  });

  it('serves the protocol reference beside its own', async () => {
    const res = await request(`${gw.baseUrl}/bank/openapi.json`);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.json.paths).sort(), [
      '/v1/mandates',
      '/v1/mandates/{mandateId}',
      '/v1/mandates/{mandateId}/debits',
      '/v1/mandates/{mandateId}/debits/{debitId}',
      '/v1/mandates/{mandateId}/notifications',
      '/v1/payments',
      '/v1/payments/{txnId}',
      '/v1/payouts',
      '/v1/payouts/{payoutId}',
      '/v1/refunds',
      '/v1/refunds/{refundId}',
      '/v1/settlement-files/{date}',
    ]);
    assert.ok(res.json.webhooks.bankCallback.post.requestBody);
    const own = await request(`${gw.baseUrl}/openapi.json`);
    assert.ok(own.json.paths['/bank/v1/callbacks'].post, 'the callbacks endpoint is in the gateway reference');
  });
});

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
