import { strict as assert } from 'node:assert';
import { istDate } from '../../src/domain/ist-time';
import {
  addDays,
  captureWindow,
  isIsoDate,
  parseHolidays,
  settlementDateOf,
  settlementDateOfCapture,
  type SettlementCalendar,
} from '../../src/domain/settlement-calendar';

const t1: SettlementCalendar = { days: 1, holidays: new Set() };
// 2026-11-26 is a Thursday.
describe('settlement calendar (domain)', () => {
  it('T+1 skips weekends: Thursday -> Friday, Friday -> Monday, Saturday and Sunday -> Monday', () => {
    assert.equal(settlementDateOf(t1, '2026-11-26'), '2026-11-27');
    assert.equal(settlementDateOf(t1, '2026-11-27'), '2026-11-30');
    assert.equal(settlementDateOf(t1, '2026-11-28'), '2026-11-30');
    assert.equal(settlementDateOf(t1, '2026-11-29'), '2026-11-30');
  });

  it('T+2 with a holiday on the Monday: Thursday -> Tuesday', () => {
    const cal = { days: 2, holidays: parseHolidays('2026-11-30, 2026-12-25') };
    assert.equal(settlementDateOf(cal, '2026-11-26'), '2026-12-01');
    assert.equal(settlementDateOf(cal, '2026-11-27'), '2026-12-02');
  });

  it('the capture day is the IST day: 23:59 IST on Thursday is 18:29 UTC Thursday, 00:10 IST Friday is Thursday in UTC', () => {
    assert.equal(istDate(new Date('2026-11-26T18:29:00Z')), '2026-11-26');
    assert.equal(istDate(new Date('2026-11-26T18:40:00Z')), '2026-11-27');
    assert.equal(settlementDateOfCapture(t1, new Date('2026-11-26T18:40:00Z')), '2026-11-30');
  });

  it("Monday's settlement takes Friday, Saturday and Sunday's captures (IST days); a weekend date takes none", () => {
    assert.deepEqual(captureWindow(t1, '2026-11-30'), {
      from: new Date('2026-11-26T18:30:00Z'),
      to: new Date('2026-11-29T18:30:00Z'),
    });
    assert.deepEqual(captureWindow(t1, '2026-11-27'), {
      from: new Date('2026-11-25T18:30:00Z'),
      to: new Date('2026-11-26T18:30:00Z'),
    });
    assert.equal(captureWindow(t1, '2026-11-28'), null);
  });

  it('every capture day belongs to exactly one window', () => {
    const cal = { days: 2, holidays: parseHolidays('2026-12-25,2026-12-28') };
    for (let d = '2026-12-01'; d < '2027-01-15'; d = addDays(d, 1)) {
      const s = settlementDateOf(cal, d);
      const w = captureWindow(cal, s)!;
      const midday = new Date(Date.parse(`${d}T06:30:00Z`));
      assert.ok(w.from <= midday && midday < w.to, `${d} settles on ${s}`);
    }
  });

  it('refuses a holiday list with a date that does not exist', () => {
    assert.throws(() => parseHolidays('2026-02-30'), /not a yyyy-MM-dd date/);
    assert.equal(isIsoDate('2026-02-28'), true);
    assert.equal(isIsoDate('2026-2-28'), false);
  });

  it("T+0 settles a working day's captures on that day up to the cut-off hour; later ones and the weekend's on the next working day", () => {
    const t0: SettlementCalendar = { days: 0, holidays: new Set(), cutoffHourIst: 9 };
    // Thursday 2026-11-26: from Wednesday 09:00 IST (03:30 UTC) to Thursday 09:00 IST.
    assert.deepEqual(captureWindow(t0, '2026-11-26'), {
      from: new Date('2026-11-25T03:30:00Z'),
      to: new Date('2026-11-26T03:30:00Z'),
    });
    assert.equal(settlementDateOfCapture(t0, new Date('2026-11-26T03:29:00Z')), '2026-11-26', '08:59 IST Thursday');
    assert.equal(settlementDateOfCapture(t0, new Date('2026-11-26T03:30:00Z')), '2026-11-27', '09:00 IST Thursday');
    // Monday takes Friday 09:00 to Monday 09:00; Saturday and Sunday take nothing.
    assert.deepEqual(captureWindow(t0, '2026-11-30'), {
      from: new Date('2026-11-27T03:30:00Z'),
      to: new Date('2026-11-30T03:30:00Z'),
    });
    assert.equal(captureWindow(t0, '2026-11-28'), null);
    assert.equal(settlementDateOfCapture(t0, new Date('2026-11-28T06:30:00Z')), '2026-11-30', 'Saturday noon');
    // Every instant belongs to exactly the window of its settlement date.
    for (let at = Date.parse('2026-11-20T00:00:00Z'); at < Date.parse('2026-12-10T00:00:00Z'); at += 45 * 60_000) {
      const s = settlementDateOfCapture(t0, new Date(at));
      const w = captureWindow(t0, s)!;
      assert.ok(w.from.getTime() <= at && at < w.to.getTime(), `${new Date(at).toISOString()} settles on ${s}`);
    }
  });
});
