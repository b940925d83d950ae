import { strict as assert } from 'node:assert';
import { formatIstDateTime, formatIstMandateDate } from '../../src/domain/ist-time';

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

describe('mandate dates', () => {
  it('renders the IST day at midnight as MMM d, yyyy h:mm:ss a', () => {
    assert.equal(formatIstMandateDate(new Date('2026-11-22T18:30:00Z')), 'Nov 23, 2026 12:00:00 AM');
    assert.equal(formatIstMandateDate(new Date('2026-01-04T18:29:59Z')), 'Jan 4, 2026 12:00:00 AM');
  });
});
