import { operation, successError } from '../reference/operation';

import { timeQuerySchema, timeResponseSchema, timeSkipResponseSchema, timeSkipSchema } from '../schemas/sandbox-time';

/** Time-skipping mode only: the gateway's time, and skips forward. */
export function sandboxTimePaths(): Record<string, object> {
  return {
    '/sandbox/v1/time': {
      get: operation({
        summary: "The gateway's current time (time-skipping mode)",
        description:
          "The test server's time, which the API, the activities and the workflows all read: IST text and epoch milliseconds.",
        in: 'query',
        request: timeQuerySchema,
        example: {},
        responses: { 200: { description: 'the time', schema: timeResponseSchema } },
        errors: [400, 503],
        errorEnvelope: successError,
      }),
    },
    '/sandbox/v1/time/skip': {
      post: operation({
        summary: 'Move time forward (time-skipping mode)',
        description:
          'Exactly one of `seconds` (1 to a year) or `until` (IST, after the current time, at most a year ahead). Every timer that falls due fires in order; the answer comes once no open workflow has work outstanding. 503 with code 2051 when workflows are still busy after TIME_SKIP_TIMEOUT_SECONDS (time goes on to the target as they finish).',
        request: timeSkipSchema,
        example: { seconds: 900 },
        responses: { 200: { description: 'skipped', schema: timeSkipResponseSchema } },
        errors: [400, 413, 415, 503],
        errorEnvelope: successError,
      }),
    },
  };
}
