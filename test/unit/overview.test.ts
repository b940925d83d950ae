import { strict as assert } from 'node:assert';
import { lastIstDays, overviewDays } from '../../src/domain/overview';

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

  it("the overview's days take the stored totals, a day without any as zero, with the success rate among the answered", () => {
    const days = lastIstDays(new Date('2026-03-10T12:00:00Z'), 3);
    const totals = new Map([
      ['2026-03-08', { count: 1, succeeded: 1, failed: 0, volumePaise: 1_000 }],
      ['2026-03-10', { count: 4, succeeded: 2, failed: 1, volumePaise: 2_500 }],
      ['2026-03-11', { count: 9, succeeded: 9, failed: 0, volumePaise: 9_000 }], // not asked for
    ]);
    assert.deepEqual(overviewDays(totals, days), [
      { day: '2026-03-08', count: 1, succeeded: 1, failed: 0, volumePaise: 1_000, successRate: 1 },
      { day: '2026-03-09', count: 0, succeeded: 0, failed: 0, volumePaise: 0, successRate: null },
      { day: '2026-03-10', count: 4, succeeded: 2, failed: 1, volumePaise: 2_500, successRate: 2 / 3 },
    ]);
  });

  it('a day the bank answered nothing has no success rate (null, not 0)', () => {
    const days = lastIstDays(new Date('2026-03-10T12:00:00Z'), 1);
    assert.deepEqual(overviewDays(new Map([['2026-03-10', { count: 1, succeeded: 0, failed: 0, volumePaise: 0 }]]), days), [
      { day: '2026-03-10', count: 1, succeeded: 0, failed: 0, volumePaise: 0, successRate: null },
    ]);
  });
});
