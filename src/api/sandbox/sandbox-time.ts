import { ApiError } from '../../domain/api-errors';
import { formatIstDateTime, parseIstDateTime } from '../../domain/ist-time';
import type { ApiDeps } from '../deps';
import { defineOperation } from '../operation';
import { MAX_SKIP_SECONDS, timeQuerySchema, timeSkipSchema } from '../schemas/sandbox-time';
import { anyTester } from './sandbox-caller';
import { timeReference, timeSkipReference } from './sandbox-time-openapi';
import type { SandboxUseCases } from './use-cases';

const instant = (t: Date) => ({ istDateTime: formatIstDateTime(t), epochMillis: t.getTime() });

/** The app mounts these operations only in time-skipping mode (onlyWhere), where the sandbox's use cases have the time travel. */
function timeTravelOf(deps: ApiDeps): Required<Pick<SandboxUseCases, 'now' | 'skip'>> {
  const { now, skip } = deps.useCases.sandbox;
  if (!now || !skip) throw new Error('time travel is served in time-skipping mode only');
  return { now, skip };
}

/*
 * Time-skipping mode only: a tester reads the gateway's time and moves it forward. Every timer that
 * falls due fires, in order, and the answer comes once the workflows it woke are idle, so what the
 * tester reads next already shows their results.
 */

/** GET /sandbox/v1/time: the gateway's time (followTestServerClock re-read the server's for this request already). */
export const timeOperation = defineOperation({
  method: 'get',
  path: '/sandbox/v1/time',
  onlyWhere: 'timeSkipping',
  envelope: 'success',
  auth: anyTester,
  body: { contentType: 'none' },
  // None: any parameter is refused.
  query: timeQuerySchema,
  reference: timeReference,
  handle: (_request, deps) => Promise.resolve({ success: true, data: instant(timeTravelOf(deps).now()) }),
});

/** POST /sandbox/v1/time/skip: by a number of seconds, or up to an IST wall-clock time. */
export const timeSkipOperation = defineOperation({
  method: 'post',
  path: '/sandbox/v1/time/skip',
  onlyWhere: 'timeSkipping',
  envelope: 'success',
  auth: anyTester,
  body: { contentType: 'application/json', schema: timeSkipSchema },
  reference: timeSkipReference,
  async handle({ body }, deps) {
    const timeTravel = timeTravelOf(deps);
    const result = await timeTravel.skip(
      'seconds' in body ? { byMs: body.seconds * 1000 } : { to: untilInstant(body.until, timeTravel.now()) },
    );
    if (result.kind === 'notAhead') {
      throw new ApiError('validationFailed', `the target is not after the current time ${formatIstDateTime(result.now)}`);
    }
    if (result.kind === 'stillBusy') {
      const ids = result.busyWorkflowIds;
      throw new ApiError(
        'timeSkipUnfinished',
        `${ids.length} workflow(s) still had work outstanding after ${deps.config.temporal.timeSkipTimeoutSeconds} s (${ids.slice(0, 10).join(', ')}); ` +
          `is a worker polling task queue ${deps.config.temporal.taskQueue}? The time is ${formatIstDateTime(result.now)} IST; ` +
          (result.moving ? 'it goes on to the target as they finish' : 'nothing was skipped'),
      );
    }
    return { success: true, data: { from: instant(result.from), to: instant(result.to) } };
  },
});

/** The IST wall-clock time of `until`: a real date-time, after now and at most a year ahead. */
function untilInstant(until: string, now: Date): Date {
  const target = parseIstDateTime(until);
  if (!target) throw new ApiError('validationFailed', `until: ${until} is not a date-time`);
  if (target.getTime() <= now.getTime()) {
    throw new ApiError('validationFailed', `until: ${until} is not after the current time ${formatIstDateTime(now)}`);
  }
  if (target.getTime() - now.getTime() > MAX_SKIP_SECONDS * 1000) {
    throw new ApiError('validationFailed', `until: ${until} is more than a year after the current time`);
  }
  return target;
}
