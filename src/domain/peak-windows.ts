import { istMsOfDay } from './ist-time';

/**
 * UPI AutoPay's peak windows (design.md, Mandates and peak windows): 10:00-13:00 and 17:00-21:30 IST, start
 * inclusive, end exclusive. No mandate execution, nor its scheduling, happens inside one. IST has no
 * daylight saving, so the minute of the IST day is arithmetic on the instant (istMsOfDay).
 */

/** [start, end) in minutes of the IST day. */
export const PEAK_WINDOWS: readonly (readonly [number, number])[] = [
  [10 * 60, 13 * 60],
  [17 * 60, 21 * 60 + 30],
];

/** The least time between a notify request and the execution it schedules. */
export const NOTIFY_LEAD_MS = 24 * 3_600_000;

/** The peak window `at` falls in, as [start, end) instants, or null outside them. */
export function peakWindowAt(at: Date): { start: Date; end: Date } | null {
  const ms = istMsOfDay(at);
  const midnight = at.getTime() - ms;
  for (const [start, end] of PEAK_WINDOWS) {
    if (ms >= start * 60_000 && ms < end * 60_000) {
      return { start: new Date(midnight + start * 60_000), end: new Date(midnight + end * 60_000) };
    }
  }
  return null;
}

export const isInPeakWindow = (at: Date) => peakWindowAt(at) !== null;

/** `at` itself outside the peak windows, or the end of the window it falls in. */
export function firstOffPeakInstant(at: Date): Date {
  return peakWindowAt(at)?.end ?? at;
}

export type NotifyTimingProblem = 'requestInPeakWindow' | 'executionInPeakWindow' | 'leadTimeTooShort';

/** Why a notify arriving at `requestAt` may not schedule an execution at `executionAt`, or null. */
export function notifyTimingProblem(requestAt: Date, executionAt: Date): NotifyTimingProblem | null {
  if (isInPeakWindow(requestAt)) return 'requestInPeakWindow';
  if (executionAt.getTime() - requestAt.getTime() < NOTIFY_LEAD_MS) return 'leadTimeTooShort';
  if (isInPeakWindow(executionAt)) return 'executionInPeakWindow';
  return null;
}
