import { strict as assert } from 'node:assert';
import { debitsCanFallDue } from '../production-stack/debits-due';

/** An instant at an IST wall-clock time on 2026-12-02. */
const ist = (hhmmss: string) => new Date(`2026-12-02T${hhmmss}+05:30`);
const secondsAfter = (at: Date, s: number) => new Date(at.getTime() + s * 1000);

/**
 * The kill probes schedule debits to fall due 1 to 10 s after a kill only when none of them, run
 * late, would wait out a peak window: a killed worker's debit is sent again 30 s later, a timer on a
 * moved shard fires once the shard has moved, and the probes wait minutes for them.
 */
describe('the kill probes: when debits may fall due (debitsCanFallDue)', () => {
  const window = (now: Date) => debitsCanFallDue(secondsAfter(now, 1), secondsAfter(now, 10), now);

  it('at 08:00 IST, hours from a window: yes', () => {
    assert.equal(window(ist('08:00:00')), true);
  });

  it('20 s before a window opens, where every debit is due before it but a late one would run in it: no', () => {
    assert.equal(window(ist('09:59:40')), false);
    assert.equal(window(ist('16:59:40')), false);
  });

  it('9 minutes before a window opens, inside the late margin: no; 11 minutes before: yes', () => {
    assert.equal(window(ist('09:51:00')), false);
    assert.equal(window(ist('09:49:00')), true);
  });

  it('inside a window, or just after one with the notify clock a day back in one: no', () => {
    assert.equal(window(ist('11:00:00')), false);
    // Notified a day and two minutes before 13:01 IST: 12:59 IST the day before, in its window.
    assert.equal(window(ist('13:01:00')), false);
    assert.equal(window(ist('13:05:00')), true);
  });
});
