import { strict as assert } from 'node:assert';
import { ApplicationFailure } from '@temporalio/common';
import { signBankRequest } from '../../src/bank/signing';
import { newTxnId } from '../../src/domain/identifiers';
import { PaymentResponse } from '../../src/domain/response-codes';
import type { Transaction } from '../../src/domain/transaction';
import type { TransactionRepository } from '../../src/store/transaction-repository';
import { ensurePaymentWorkflow, startPaymentDeps } from '../../src/usecases/start-payment';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { legacyChecksum, legacyKitPairs, openPage, postForm, submitPageForm, withChecksum } from '../support/checkout';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { startReceiver } from '../support/receiver';
import { csvFile, reconcile, uploadReconciliation } from '../support/reconciliations';

async function until<T>(what: () => Promise<T | undefined>, label: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const found = await what();
    if (found !== undefined) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`never: ${label}`);
}

/**
 * A bank answer or reconciliation line that arrives after the payment workflow decided is applied
 * (a delayed success) or refused so its sender retries: never accepted and dropped (design.md,
 * Transactions and states). The real stack against the bank simulator; the store write of a silent bank's 1023
 * can be held, as a degraded store holds it, to open the window between the decision and its record.
 */
describe('Late bank answers: applied or refused for a retry, never dropped', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  /** Merchants whose next 1023 write waits until the test releases it. */
  const holds = new Map<string, { entered: () => void; released: Promise<void> }>();
  /** Merchants whose payment requests the bank refuses (a 4xx: no retry can heal it). */
  const refusing = new Set<string>();

  before(async () => {
    gw = await startTestGateway(
      { WEBHOOK_RETRY_SCHEDULE: '0,200ms', WEBHOOK_BATCH_WINDOW: '1s' },
      {
        bank: 'simulator',
        activityDeps: (deps) => {
          const real = deps.transactions;
          const transactions: TransactionRepository = Object.create(real);
          transactions.recordOutcome = async (order, outcome, ...rest) => {
            const hold =
              outcome.responseCode === PaymentResponse.bankNoAnswer.code ? holds.get(order.merchantIdentifier) : undefined;
            if (hold) {
              holds.delete(order.merchantIdentifier);
              hold.entered();
              await hold.released;
            }
            return real.recordOutcome(order, outcome, ...rest);
          };
          const bank: typeof deps.bank = Object.create(deps.bank);
          bank.requestPayment = async (request) => {
            if (!refusing.has(request.merchantIdentifier)) return deps.bank.requestPayment(request);
            throw ApplicationFailure.nonRetryable(
              `POST /v1/payments: the bank refused the request with 400: {"error":"invalid_request"}`,
              'BankRequestRefused',
            );
          };
          return { ...deps, transactions, bank };
        },
      },
    );
  });
  after(() => gw?.stop());

  /** Holds the merchant's next 1023 write: resolves once the workflow is recording, with the release. */
  function holdRecording(merchantIdentifier: string): { recording: Promise<void>; release: () => void } {
    let entered!: () => void;
    let release!: () => void;
    const recording = new Promise<void>((r) => (entered = r));
    holds.set(merchantIdentifier, { entered, released: new Promise<void>((r) => (release = r)) });
    return { recording, release };
  }

  /** A silent bank's payment whose 1023 is being recorded (held) when this returns. */
  async function silentPaymentBeingRecorded(m: MerchantCredentials) {
    const hold = holdRecording(m.merchantIdentifier);
    const orderId = newOrderId('late');
    const res = await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'noanswer@sandbox' });
    assert.equal(res.status, 202, res.text);
    await hold.recording;
    return { orderId, txnId: res.json.data.txnId as string, release: hold.release };
  }

  const postCallback = (body: Record<string, unknown>) => {
    const raw = JSON.stringify(body);
    return request(`${gw.baseUrl}/bank/v1/callbacks`, {
      body: raw,
      headers: signBankRequest(gw.rt.config.bank.secret!, raw, new Date()),
    });
  };
  const approval = (t: Pick<Transaction, 'txnId' | 'merchantIdentifier' | 'orderId' | 'amountPaise'>) => ({
    type: 'payment',
    eventId: `evt-${t.txnId}`,
    txnId: t.txnId,
    merchantIdentifier: t.merchantIdentifier,
    orderId: t.orderId,
    amountPaise: t.amountPaise,
    status: 'APPROVED',
    responseCode: '00',
    responseDescription: 'Approved',
    bankRefNum: 'BRN4242',
    authCode: 'A42',
  });
  const delayedSuccess = (m: string, orderId: string) =>
    until(async () => {
      const t = await storedTransaction(gw, m, orderId);
      return t?.status === 'Success' ? t : undefined;
    }, `${orderId} Success`);

  it("an approval while the silent bank's 1023 is being recorded is refused (503, 2052), retried by the bank, and ends a delayed success", async () => {
    const m = await gw.newMerchant('Late callback');
    const { orderId, txnId, release } = await silentPaymentBeingRecorded(m);
    const settle = await request(`${gw.bank!.url}/admin/payments/${txnId}/settle`, {
      body: { approved: true },
      headers: { authorization: `Bearer ${gw.bank!.adminToken}` },
    });
    assert.equal(settle.status, 200, settle.text);
    const books = () => gw.bank!.books.snapshot(m.merchantIdentifier);
    const first = await until(async () => books().callbacks[0]?.attempts[0], 'the first callback attempt');
    assert.equal(first.status, 503, 'refused so the bank retries: the payment is still Pending in the store');
    assert.match(first.body ?? '', /2052/);
    release();
    await gw.bank!.idle();
    const callback = books().callbacks[0]!;
    assert.equal(callback.state, 'delivered');
    assert.match(callback.attempts.at(-1)!.body ?? '', /"result":"delayedSuccess"/);
    const t = await delayedSuccess(m.merchantIdentifier, orderId);
    assert.deepEqual([t.delayedSuccess, t.bankRefNum], [true, books().payments[0]!.answer.bankRefNum]);
  });

  it('a reconciliation line while the 1023 is being recorded waits for the record, then applies: counted once, really changed', async () => {
    const m = await gw.newMerchant('Late line');
    const { orderId, txnId, release } = await silentPaymentBeingRecorded(m);
    const started = await uploadReconciliation(gw, csvFile([`${txnId},BANK7001,SUCCESS,10000`]));
    assert.equal(started.status, 202, started.text);
    await new Promise((r) => setTimeout(r, 1_000));
    release();
    const id = started.json.data.reconciliationId as string;
    await gw.rt.temporal.workflow.getHandle(`reconciliation:${id}`).result();
    const report = await request(`${gw.baseUrl}/ops/v1/reconciliations/${id}`, {
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
    });
    const { applied, unchanged, rejected } = report.json.data;
    assert.deepEqual({ applied, unchanged, rejected }, { applied: 1, unchanged: 0, rejected: [] });
    const t = await storedTransaction(gw, m.merchantIdentifier, orderId);
    assert.deepEqual([t?.status, t?.delayedSuccess, t?.bankRefNum], ['Success', true, 'BANK7001']);
  });

  it('a callback for a Pending order whose workflow has not started is refused (503), and its retry is taken', async () => {
    const m = await gw.newMerchant('Unstarted');
    // As if the API wrote a QR order and died before starting its workflow (no sweep asks a bank for a QR).
    const orderId = newOrderId('orphan');
    const createdAt = gw.rt.now();
    const order = {
      txnId: newTxnId(createdAt),
      merchantIdentifier: m.merchantIdentifier,
      orderId,
      amountPaise: 10_000,
      productDescription: 'Orphan QR',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: { kind: 'UPI_QR' as const },
      createdAt,
    };
    await gw.rt.transactions.createPending(order);
    const refused = await postCallback(approval(order));
    assert.equal(refused.status, 503, refused.text);
    assert.equal(refused.json.message.code, '2052');
    assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))?.status, 'Pending');

    await ensurePaymentWorkflow(startPaymentDeps(gw.rt), (await storedTransaction(gw, m.merchantIdentifier, orderId))!);
    const retried = await postCallback(approval(order));
    assert.equal(retried.status, 200, retried.text);
    assert.deepEqual(retried.json, { success: true, data: { result: 'delivered' } });
    assert.equal((await paymentFinished(gw, m.merchantIdentifier, orderId)).status, 'Success');
    assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))?.bankRefNum, 'BRN4242');
  });

  it('a bank that refuses the request itself: Failure 1025 (published 401) with its real-time webhook, never Pending for ever; a later approval is a delayed success', async () => {
    const receiver = await startReceiver();
    try {
      const m = await gw.newMerchant('Refused request');
      await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
      refusing.add(m.merchantIdentifier);
      const orderId = newOrderId('refused');
      const res = await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId, payerVpa: 'success@sandbox' });
      assert.equal(res.status, 202, res.text);
      assert.equal((await paymentFinished(gw, m.merchantIdentifier, orderId)).status, 'Failure');
      const t = (await storedTransaction(gw, m.merchantIdentifier, orderId))!;
      assert.deepEqual(
        [t.status, t.responseCode, t.markedFailedByService],
        ['Failure', PaymentResponse.refusedByBank.code, true],
      );
      const realtime = await until(async () => {
        const call = receiver.calls.find((c) => !c.url.endsWith('?realtime=false'));
        return call ? JSON.parse(new URLSearchParams(call.body).get('txnData')!) : undefined;
      }, 'the real-time webhook');
      assert.deepEqual(
        realtime.txns.map((x: { orderId: string; responseCode: string }) => [x.orderId, x.responseCode]),
        [[orderId, '401']],
      );
      const report = await reconcile(gw, csvFile([`${t.txnId},BANK7003,SUCCESS,10000`]));
      assert.deepEqual([report.applied, report.rejected], [1, []]);
      assert.equal((await storedTransaction(gw, m.merchantIdentifier, orderId))?.status, 'Success');
    } finally {
      refusing.clear();
      await receiver.close();
    }
  });

  describe('a checkout cancelled after its UPI intent or QR was handed out, that the bank then approves', () => {
    async function cancelledCheckout(m: MerchantCredentials) {
      const orderId = newOrderId('cx');
      const pairs = legacyKitPairs(m, orderId, 'Cancelled tea');
      const posted = await postForm(`${gw.baseUrl}/transact?v=2`, withChecksum(pairs, legacyChecksum(m.secretKey, pairs)), {
        browser: true,
      });
      assert.equal(posted.status, 303, posted.text);
      // The page shows the payer the UPI QR and app link of this txnId, then the payer cancels.
      const page = await openPage(gw, posted.location!);
      assert.equal((await submitPageForm(gw, `${posted.location}/cancel`, page)).status, 303);
      await paymentFinished(gw, m.merchantIdentifier, orderId);
      const t = (await storedTransaction(gw, m.merchantIdentifier, orderId))!;
      assert.deepEqual([t.status, t.responseCode], ['Failure', PaymentResponse.cancelledByPayer.code]);
      return t;
    }

    it("the bank's callback makes it a delayed success, reported in the non-real-time webhook", async () => {
      const receiver = await startReceiver();
      try {
        const m = await gw.newMerchant('Cancelled then paid');
        await gw.rt.merchants.updateSettings(m.merchantIdentifier, { webhookUrl: receiver.url, webhookFormat: 'form' });
        const t = await cancelledCheckout(m);
        const res = await postCallback(approval(t));
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.json, { success: true, data: { result: 'delayedSuccess' } });
        const paid = await delayedSuccess(m.merchantIdentifier, t.orderId);
        assert.deepEqual([paid.delayedSuccess, paid.bankRefNum], [true, 'BRN4242']);
        const late = await until(async () => {
          const call = receiver.calls.find((c) => c.url.endsWith('?realtime=false'));
          return call ? JSON.parse(new URLSearchParams(call.body).get('txnData')!) : undefined;
        }, 'the non-real-time webhook');
        assert.deepEqual(
          late.txns.map((x: { orderid: string }) => x.orderid),
          [t.orderId],
        );
      } finally {
        await receiver.close();
      }
    });

    it("the bank's reconciliation line makes it a delayed success, counted applied", async () => {
      const m = await gw.newMerchant('Cancelled then reconciled');
      const t = await cancelledCheckout(m);
      const report = await reconcile(gw, csvFile([`${t.txnId},BANK7002,SUCCESS,10000`]));
      assert.deepEqual([report.applied, report.unchanged, report.rejected], [1, 0, []]);
      const paid = await storedTransaction(gw, m.merchantIdentifier, t.orderId);
      assert.deepEqual([paid?.status, paid?.delayedSuccess, paid?.bankRefNum], ['Success', true, 'BANK7002']);
    });
  });
});
