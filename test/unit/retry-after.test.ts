import assert from 'node:assert/strict';
import { parseRetryAfter } from '../../src/domain/retry-after';

describe('parseRetryAfter (a webhook receiver asking to wait)', () => {
  const at = new Date('2026-03-01T10:00:00Z');

  it('reads delay-seconds, spaces around them too', () => {
    assert.equal(parseRetryAfter('120', at), 120_000);
    assert.equal(parseRetryAfter(' 0 ', at), 0);
  });

  it('caps delay-seconds at a year', () => {
    assert.equal(parseRetryAfter('999999999', at), 366 * 86_400 * 1000);
  });

  it('reads an HTTP date as the wait from now, and a past date as no wait', () => {
    assert.equal(parseRetryAfter('Sun, 01 Mar 2026 10:05:00 GMT', at), 300_000);
    assert.equal(parseRetryAfter('Sunday, 01-Mar-26 10:01:00 GMT', at), 60_000);
    assert.equal(parseRetryAfter('Sun, 01 Mar 2026 09:00:00 GMT', at), 0);
  });

  // Before: Date.parse read '-5' and '1.5' as dates in 2001, so the receiver's wait became 0.
  it('is null when absent or unreadable (a negative or fractional number, words)', () => {
    assert.equal(parseRetryAfter(undefined, at), null);
    assert.equal(parseRetryAfter('soon', at), null);
    assert.equal(parseRetryAfter('', at), null);
    assert.equal(parseRetryAfter('-5', at), null);
    assert.equal(parseRetryAfter('1.5', at), null);
  });
});
