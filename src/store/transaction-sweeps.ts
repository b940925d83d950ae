import type { Collection, Filter } from 'mongodb';
import type { Transaction } from '../domain/transaction';
import { orderKey, type OrderRef } from './order-id-repository';
import { EARLIEST_DATE, LATEST_DATE, type SweepQueue, type TransactionDoc } from './transaction-doc';

/**
 * The sweeps' reads and marks on the transactions collection (TransactionRepository delegates to
 * it): Pending orders through the sweep queue (SweepQueue), pending refunds and chargeback notices.
 */
export class TransactionSweeps {
  constructor(
    private readonly txns: Collection<TransactionDoc>,
    private readonly toTransaction: (doc: TransactionDoc) => Transaction,
  ) {}

  /**
   * Pending orders not touched since `before`: candidates for the sweep. Never swept first, then
   * the longest unswept: orders that rightly wait for days (payment links, QRs) are revisited in
   * turn and can never crowd a new orphan out of a run's `limit`.
   */
  async findPendingSince(before: Date, limit: number): Promise<Transaction[]> {
    // From the sweep queue's index (SweepQueue): the unswept lane in the order of their last write,
    // then the swept lane in the order of their last sweep (a swept order was untouched since before
    // an earlier `before`; updatedAt is checked all the same). Both ranges are bounded on both sides
    // so that the embedded store searches the index in its order and stops at the limit.
    const lane = (sweepLane: SweepQueue['sweepLane'], dueBefore: Date, n: number) =>
      this.txns
        .find({ sweepLane, sweepDueAt: { $gte: EARLIEST_DATE, $lt: dueBefore }, status: 'Pending', updatedAt: { $lt: before } })
        .sort({ sweepDueAt: 1, updatedAt: 1 })
        .limit(n)
        .toArray();
    const docs = await lane('unswept', before, limit);
    if (docs.length < limit) docs.push(...(await lane('swept', LATEST_DATE, limit - docs.length)));
    return docs.map(this.toTransaction);
  }

  /** Notes that the sweep ensured these orders' workflows (see findPendingSince): they go to the back of the queue. */
  async markSwept(orders: OrderRef[], at: Date): Promise<void> {
    if (orders.length === 0) return;
    await this.txns.updateMany(
      { _id: { $in: orders.map(orderKey) }, status: 'Pending' },
      { $set: { sweptAt: at, sweepLane: 'swept', sweepDueAt: at } },
    );
  }

  /**
   * Puts Pending orders stored before the sweep queue existed into it (at start-up, once per store:
   * runtime.ts), each as it would stand had it been written with it: swept at its sweptAt, or
   * unswept since its updatedAt. Conditional on the order still Pending and still outside the queue.
   * Returns how many it queued.
   */
  async queuePendingForSweep(): Promise<number> {
    const outside = { status: 'Pending', sweepLane: { $exists: false } } as Filter<TransactionDoc>;
    let queued = 0;
    for await (const doc of this.txns.find(outside, { projection: { _id: 1, updatedAt: 1, sweptAt: 1 } })) {
      const queue: SweepQueue = doc.sweptAt
        ? { sweepLane: 'swept', sweepDueAt: doc.sweptAt }
        : { sweepLane: 'unswept', sweepDueAt: doc.updatedAt };
      queued += (await this.txns.updateOne({ _id: doc._id, ...outside }, { $set: queue })).modifiedCount;
    }
    return queued;
  }

  /**
   * Orders with a refund still PENDING and untouched since `before`: candidates for the sweep. As
   * findPendingSince: never swept first, then the longest unswept, so refunds that rightly wait for
   * the bank are revisited in turn and never crowd an orphaned refund out of a run's `limit`.
   */
  async findWithPendingRefundsSince(before: Date, limit: number): Promise<Transaction[]> {
    const docs = await this.txns
      .find({ 'refunds.status': 'PENDING', updatedAt: { $lt: before } })
      .sort({ refundsSweptAt: 1, updatedAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(this.toTransaction);
  }

  /** Notes that the sweep ensured these orders' refund workflows (see findWithPendingRefundsSince). */
  async markRefundsSwept(orders: OrderRef[], at: Date): Promise<void> {
    if (orders.length === 0) return;
    await this.txns.updateMany(
      { _id: { $in: orders.map(orderKey) }, 'refunds.status': 'PENDING' },
      { $set: { refundsSweptAt: at } },
    );
  }

  /**
   * Orders whose last chargeback change has no delivery started yet and that nobody touched since
   * `before`: candidates for the sweep, never swept first, then the longest unswept.
   */
  async findWithChargebackNoticeSince(before: Date, limit: number): Promise<Transaction[]> {
    const docs = await this.txns
      .find({ 'chargebackNotice.version': { $exists: true }, updatedAt: { $lt: before } })
      .sort({ chargebackNoticeSweptAt: 1, updatedAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map(this.toTransaction);
  }

  /** Notes that the sweep visited these orders' chargeback notices (see findWithChargebackNoticeSince). */
  async markChargebackNoticesSwept(orders: OrderRef[], at: Date): Promise<void> {
    if (orders.length === 0) return;
    await this.txns.updateMany(
      { _id: { $in: orders.map(orderKey) }, 'chargebackNotice.version': { $exists: true } },
      { $set: { chargebackNoticeSweptAt: at } },
    );
  }
}
