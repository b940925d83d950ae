import Router from '@koa/router';
import { ApiError } from '../../domain/api-errors';
import { formatIstDateTime, parseIstDateTime } from '../../domain/ist-time';
import type { TimeTravel } from '../../temporal/time-travel';
import type { ApiDeps } from '../deps';
import { readJson } from '../middleware/body';
import { MAX_SKIP_SECONDS, timeSkipSchema } from '../schemas/sandbox-time';

const instant = (t: Date) => ({ istDateTime: formatIstDateTime(t), epochMillis: t.getTime() });

/**
 * Time-skipping mode only (the app adds these routes then): a tester reads the gateway's time and
 * moves it forward. Every timer that falls due fires, in order, and the answer comes once the
 * workflows it woke are idle, so what the tester reads next already shows their results.
 */
export function sandboxTimeRoutes(deps: ApiDeps, timeTravel: TimeTravel): Router {
  const router = new Router();

  router.get('/sandbox/v1/time', async (ctx) => {
    if (ctx.querystring) throw new ApiError('validationFailed', 'this endpoint takes no query parameters');
    // followTestServerClock re-read the server's time for this request already.
    ctx.body = { success: true, data: instant(timeTravel.clock.now()) };
  });

  router.post('/sandbox/v1/time/skip', async (ctx) => {
    const { body } = await readJson(ctx, timeSkipSchema, deps.config.MAX_BODY_BYTES);
    const result = await timeTravel.skip(
      'seconds' in body ? { byMs: body.seconds * 1000 } : { to: untilInstant(body.until, timeTravel.clock.now()) },
    );
    if (result.kind === 'notAhead') {
      throw new ApiError('validationFailed', `the target is not after the current time ${formatIstDateTime(result.now)}`);
    }
    if (result.kind === 'stillBusy') {
      const ids = result.busyWorkflowIds;
      throw new ApiError(
        'timeSkipUnfinished',
        `${ids.length} workflow(s) still had work outstanding after ${deps.config.TIME_SKIP_TIMEOUT_SECONDS} s (${ids.slice(0, 10).join(', ')}); ` +
          `is a worker polling task queue ${deps.config.TEMPORAL_TASK_QUEUE}? The time is ${formatIstDateTime(result.now)} IST; ` +
          (result.moving ? 'it goes on to the target as they finish' : 'nothing was skipped'),
      );
    }
    ctx.body = { success: true, data: { from: instant(result.from), to: instant(result.to) } };
  });

  return router;
}

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
