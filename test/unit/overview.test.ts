import { strict as assert } from 'node:assert';
import { dailyFigures, lastIstDays } from '../../src/domain/overview';
import type { Transaction } from '../../src/domain/transaction';

type Row = Pick<Transaction, 'createdAt' | 'status' | 'amountPaise' | 'successAt'>;
async function* rowsOf(rows: Row[]) {
  yield* rows;
}

describe('dashboard overview figures (domain)', () => {
  it('the last n IST days end with the day of now, each from IST midnight to the next', () => {
    // 2026-03-10 00:10 IST is still 2026-03-09 in UTC.
    const days = lastIstDays(new Date('2026-03-09T18:40:00Z'), 3);
    assert.deepEqual(
      days.map((d) => [d.day, d.from.toISOString(), d.until.toISOString()]),
      [
        ['2026-03-08', '2026-03-07T18:30:00.000Z', '2026-03-08T18:30:00.000Z'],
        ['2026-03-09', '2026-03-08T18:30:00.000Z', '2026-03-09T18:30:00.000Z'],
        ['2026-03-10', '2026-03-09T18:30:00.000Z', '2026-03-10T18:30:00.000Z'],
      ],
    );
  });

  it('counts each order into its IST day: volume of what succeeded, success rate among the answered', async () => {
    const days = lastIstDays(new Date('2026-03-10T12:00:00Z'), 2); // 2026-03-09 and 2026-03-10 IST
    const paid = (createdAt: string, amountPaise: number, status: Row['status'] = 'Success'): Row => ({
      createdAt: new Date(createdAt),
      status,
      amountPaise,
      successAt: new Date(createdAt),
    });
    const rows: Row[] = [
      paid('2026-03-09T18:29:59Z', 1_000), // 23:59:59 IST on the 9th
      paid('2026-03-09T18:30:00Z', 2_000), // 00:00 IST on the 10th
      paid('2026-03-10T05:00:00Z', 500, 'Refund'), // paid, then refunded: still paid that day
      { createdAt: new Date('2026-03-10T06:00:00Z'), status: 'Failure', amountPaise: 9_999, successAt: null },
      { createdAt: new Date('2026-03-10T07:00:00Z'), status: 'Pending', amountPaise: 7_777, successAt: null },
      paid('2026-03-08T18:29:59Z', 50_000), // before the first day: ignored
      paid('2026-03-10T18:30:00Z', 60_000), // after the last day: ignored
    ];
    assert.deepEqual(await dailyFigures(rowsOf(rows), days), [
      { day: '2026-03-09', count: 1, succeeded: 1, failed: 0, volumePaise: 1_000, successRate: 1 },
      { day: '2026-03-10', count: 4, succeeded: 2, failed: 1, volumePaise: 2_500, successRate: 2 / 3 },
    ]);
  });

  it('a day the bank answered nothing has no success rate (null, not 0)', async () => {
    const days = lastIstDays(new Date('2026-03-10T12:00:00Z'), 1);
    const pending: Row = { createdAt: new Date('2026-03-10T06:00:00Z'), status: 'Pending', amountPaise: 100, successAt: null };
    assert.deepEqual(await dailyFigures(rowsOf([pending]), days), [
      { day: '2026-03-10', count: 1, succeeded: 0, failed: 0, volumePaise: 0, successRate: null },
    ]);
  });
});
