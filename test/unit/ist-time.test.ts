import { strict as assert } from 'node:assert';
import {
  formatIstDateTime,
  formatIstDateTimeMillis,
  formatIstMandateDate,
  IST_OFFSET_MS,
  istDate,
  istMsOfDay,
  istStartOfDay,
} from '../../src/domain/ist-time';

describe('IST formatting', () => {
  const instant = new Date('2026-03-31T18:45:07.089Z'); // 1 April 2026, 00:15:07 in India

  it('shifts UTC by +05:30 across a date boundary', () => {
    assert.equal(formatIstDateTime(instant), '2026-04-01 00:15:07');
  });

  it('agrees with the platform time zone database for a year of instants', () => {
    const intl = new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Asia/Kolkata',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 7 * 3600 * 1000 + 123_457) {
      const d = new Date(t);
      assert.equal(formatIstDateTime(d), intl.format(d).replace(', ', ' '));
    }
  });
});

describe('IST day boundary (18:30 UTC)', () => {
  const lastMs = new Date('2026-11-26T18:29:59.999Z'); // 23:59:59.999 IST on 26 November
  const midnight = new Date('2026-11-26T18:30:00Z'); // 00:00 IST on 27 November

  it('the offset is +05:30', () => {
    assert.equal(IST_OFFSET_MS, 19_800_000);
  });

  it('istDate: the last millisecond is still the day before, 18:30 UTC is the next IST day', () => {
    assert.equal(istDate(lastMs), '2026-11-26');
    assert.equal(istDate(midnight), '2026-11-27');
    assert.equal(istDate(new Date('2026-12-31T18:30:00Z')), '2027-01-01');
    assert.equal(istDate(new Date('2026-12-31T18:29:59.999Z')), '2026-12-31');
    assert.equal(istDate(new Date('1969-12-31T18:29:59.999Z')), '1969-12-31');
    assert.equal(istDate(new Date('1969-12-31T18:30:00Z')), '1970-01-01');
  });

  it('istMsOfDay: 86,399,999 at the last millisecond, 0 at IST midnight, also before 1970', () => {
    assert.equal(istMsOfDay(lastMs), 86_399_999);
    assert.equal(istMsOfDay(midnight), 0);
    assert.equal(istMsOfDay(new Date('1969-12-31T18:30:00Z')), 0);
    assert.equal(istMsOfDay(new Date('1969-12-31T18:29:59.999Z')), 86_399_999);
    assert.equal(istMsOfDay(new Date('2026-11-27T04:30:00Z')), 10 * 3_600_000);
  });

  it('the date-time formats and the start of day agree on the boundary', () => {
    assert.equal(formatIstDateTimeMillis(lastMs), '2026-11-26 23:59:59.999');
    assert.equal(formatIstDateTime(midnight), '2026-11-27 00:00:00');
    assert.deepEqual(istStartOfDay(lastMs), new Date('2026-11-25T18:30:00Z'));
    assert.deepEqual(istStartOfDay(midnight), midnight);
  });
});

describe('mandate dates', () => {
  it('renders the IST day at midnight as MMM d, yyyy h:mm:ss a', () => {
    assert.equal(formatIstMandateDate(new Date('2026-11-22T18:30:00Z')), 'Nov 23, 2026 12:00:00 AM');
    assert.equal(formatIstMandateDate(new Date('2026-01-04T18:29:59Z')), 'Jan 4, 2026 12:00:00 AM');
  });
});
