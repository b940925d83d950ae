import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { createReconciliationActivities } from '../../activities/reconciliation-activities';
import { ReconciliationFailure } from '../../src/temporal/reconciliation-contract';
import { newTxnId } from '../../src/domain/identifiers';
import { PaymentResponse } from '../../src/domain/response-codes';
import { activityDeps } from '../../src/main/runtime';
import { ReconciliationRepository } from '../../src/store/reconciliation-repository';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId } from '../support/payments';

/**
 * Two attempts at one reconciliation batch at once (an activity that timed out on a worker still
 * running it, retried on another): the batch lease lets one apply it, the other waits and then
 * reads its result, so every line is counted as what it did (activities/reconciliation-activities.ts).
 */
describe('Reconciliation batches: one attempt at a time', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let reconciliations: ReconciliationRepository;
  let activities: ReturnType<typeof createReconciliationActivities>;

  before(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Lease'));
    reconciliations = new ReconciliationRepository(gw.rt.store.db);
    activities = createReconciliationActivities(activityDeps(gw.rt));
  });

  /** Orders the service marked failed (the bank was silent): a SUCCESS line makes each a delayed success. */
  async function silentFailures(count: number) {
    const txnIds = [];
    for (let i = 0; i < count; i++) {
      const at = new Date();
      const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: newOrderId('lease') };
      const txnId = newTxnId(at);
      await gw.rt.transactions.createPending({
        txnId,
        ...order,
        amountPaise: 10_000,
        productDescription: 'Lease',
        buyerName: null,
        buyerEmail: null,
        ipAddress: null,
        instrument: { kind: 'UPI', vpa: 'noanswer@sandbox', bankName: 'Sandbox UPI Bank' },
        createdAt: at,
      });
      const { applied } = await gw.rt.transactions.recordOutcome(
        { ...order, txnId },
        {
          status: 'Failure',
          responseCode: PaymentResponse.bankNoAnswer.code,
          responseDescription: PaymentResponse.bankNoAnswer.description,
          bankRefNum: null,
          authCode: null,
          markedFailedByService: true,
        },
        at,
      );
      assert.ok(applied);
      txnIds.push(txnId);
    }
    return txnIds;
  }

  async function file(txnIds: string[]) {
    const reconciliationId = `lease-${randomBytes(4).toString('hex')}`;
    const rows = txnIds.map((txnId, i) => ({
      line: i + 2,
      txnId,
      bankRefNum: `BRN${i}`,
      status: 'SUCCESS' as const,
      amountPaise: 10_000,
    }));
    await reconciliations.create(reconciliationId, { rows, rejected: [], lines: rows.length }, 1_000, new Date());
    return reconciliationId;
  }

  it('applies a batch once when two attempts run it at the same moment; the other is refused, then reads the result', async () => {
    const txnIds = await silentFailures(12);
    const reconciliationId = await file(txnIds);
    const attempts = await Promise.allSettled([
      activities.applyReconciliationBatch({ reconciliationId, batch: 0 }),
      activities.applyReconciliationBatch({ reconciliationId, batch: 0 }),
    ]);
    const done = attempts.filter((a) => a.status === 'fulfilled');
    const refused = attempts.filter((a) => a.status === 'rejected');
    assert.equal(done.length, 1, JSON.stringify(attempts));
    assert.deepEqual(done[0]!.value, { applied: 12, changed: 12 });
    const failure = refused[0]!.reason as { type?: string; nonRetryable?: boolean };
    assert.equal(failure.type, ReconciliationFailure.BATCH_LEASED);
    assert.ok(!failure.nonRetryable, 'Temporal retries the refused attempt');

    // Its retry finds the batch applied, and the file's report counts every line applied once.
    assert.deepEqual(await activities.applyReconciliationBatch({ reconciliationId, batch: 0 }), { applied: 12, changed: 12 });
    const report = await activities.finishReconciliation({ reconciliationId });
    assert.deepEqual([report.applied, report.unchanged, report.rejected], [12, 0, 0]);
  });

  it("waits for a live attempt's lease and takes over one whose lease expired (its worker died)", async () => {
    const reconciliationId = await file(await silentFailures(2));
    const batches = gw.rt.store.db.collection<{ _id: string }>('reconciliation_batches');
    const lease = (until: Date) =>
      batches.updateOne({ _id: `${reconciliationId}:0` }, { $set: { lease: { owner: 'another', until } } });

    await lease(new Date(Date.now() + 60_000));
    await assert.rejects(
      activities.applyReconciliationBatch({ reconciliationId, batch: 0 }),
      (e: { type?: string }) => e.type === ReconciliationFailure.BATCH_LEASED,
    );
    assert.equal((await reconciliations.batch(reconciliationId, 0))?.result, null, 'nothing applied');

    await lease(new Date(Date.now() - 1));
    assert.deepEqual(await activities.applyReconciliationBatch({ reconciliationId, batch: 0 }), { applied: 2, changed: 2 });
  });
});
