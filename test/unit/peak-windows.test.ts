import { strict as assert } from 'node:assert';
import { firstOffPeakInstant, isInPeakWindow, notifyTimingProblem } from '../../src/domain/peak-windows';

/** An instant at an IST wall-clock time on 2026-12-01. */
const ist = (hhmmss: string, day = 1) => new Date(`2026-12-${String(day).padStart(2, '0')}T${hhmmss}+05:30`);

describe('peak windows (IST, start inclusive, end exclusive)', () => {
  const boundaries: [string, boolean][] = [
    ['09:59:59', false],
    ['10:00:00', true],
    ['12:59:59', true],
    ['13:00:00', false],
    ['16:59:59', false],
    ['17:00:00', true],
    ['21:29:59', true],
    ['21:30:00', false],
    ['00:00:00', false],
    ['23:59:59', false],
  ];
  for (const [time, inside] of boundaries) {
    it(`${time} is ${inside ? 'inside' : 'outside'} a peak window, as a request time and as an execution time`, () => {
      assert.equal(isInPeakWindow(ist(time)), inside);
      // As the request time (execution two days later at 08:00, off peak).
      assert.equal(notifyTimingProblem(ist(time), ist('08:00:00', 3)), inside ? 'requestInPeakWindow' : null);
      // As the execution time (requested two days earlier at 08:00, off peak).
      assert.equal(notifyTimingProblem(ist('08:00:00', 1), ist(time, 3)), inside ? 'executionInPeakWindow' : null);
    });
  }

  it('needs 24 hours between the notify and the execution', () => {
    assert.equal(notifyTimingProblem(ist('08:00:00', 1), ist('08:00:00', 2)), null);
    assert.equal(notifyTimingProblem(ist('08:00:00', 1), ist('07:59:00', 2)), 'leadTimeTooShort');
  });

  it('a time delayed into a window moves to its end', () => {
    assert.deepEqual(firstOffPeakInstant(ist('11:15:00')), ist('13:00:00'));
    assert.deepEqual(firstOffPeakInstant(ist('21:29:59')), ist('21:30:00'));
    assert.deepEqual(firstOffPeakInstant(ist('13:00:00')), ist('13:00:00'));
  });
});
