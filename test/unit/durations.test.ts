import { strict as assert } from 'node:assert';
import { parseDurationList } from '../../src/domain/durations';

describe('duration lists (domain)', () => {
  it('reads ms, s, m and h, a bare number as seconds, spaces around each', () => {
    assert.deepEqual(parseDurationList('0,5s, 5m ,2h,250ms,30'), [0, 5_000, 300_000, 7_200_000, 250, 30_000]);
  });

  it('refuses anything else, naming the part', () => {
    for (const bad of ['', '5d', '1.5s', '-1s', '5s,,5m', 's', '5 s'])
      assert.throws(() => parseDurationList(bad), /not a duration/, bad);
    assert.throws(() => parseDurationList('5s,10x'), /not a duration: 10x/);
  });
});
