import { strict as assert } from 'node:assert';
import { isQuickRetry, waitBefore } from '../../src/domain/webhook-quick-retries';
import { parseDurationList } from '../../src/domain/durations';

describe('webhook quick retries (attempts the transaction workflow retries itself)', () => {
  const production = parseDurationList('0,5s,5m,30m,2h,5h,10h,10h');

  it('with the default schedule and 5 s, attempt 2 only; the first attempt is never a retry', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 8].map((n) => isQuickRetry(production, n, 5000)),
      [false, true, false, false, false],
    );
  });

  it('counts the waits from attempt 1 up to the attempt, and never past the schedule', () => {
    const short = parseDurationList('0,50ms,100ms,200ms,500ms,1s,2s,5s');
    // 50 + 100 + 200 + 500 + 1000 + 2000 = 3,850 ms up to attempt 7; attempt 8 adds 5 s.
    assert.deepEqual(
      [2, 3, 4, 5, 6, 7, 8, 9].map((n) => isQuickRetry(short, n, 5000)),
      [true, true, true, true, true, true, false, false],
    );
    assert.equal(isQuickRetry(short, 2, 49), false, 'a bound shorter than the first wait makes none quick');
  });

  it('0 turns quick retries off, except waits of 0', () => {
    assert.equal(isQuickRetry(production, 2, 0), false);
    assert.equal(isQuickRetry([0, 0, 5000], 2, 0), true);
  });

  it('the wait before an attempt is the schedule, shortened (never lengthened) by a Retry-After', () => {
    assert.equal(waitBefore(production, 2), 5000);
    assert.equal(waitBefore(production, 2, 2000), 2000);
    assert.equal(waitBefore(production, 2, 60_000), 5000);
    assert.equal(waitBefore(production, 9), undefined, 'past the last attempt');
  });
});
