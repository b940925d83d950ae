import { successError } from '../reference/operation';
import type { OperationReference } from '../operation';
import { timeResponseSchema, timeSkipResponseSchema } from '../schemas/sandbox-time';

/** Time-skipping mode only: the gateway's time, and skips forward. */
export const timeReference: OperationReference = {
  summary: "The gateway's current time (time-skipping mode)",
  description:
    "The test server's time, which the API, the activities and the workflows all read: IST text and epoch milliseconds.",
  example: {},
  responses: { 200: { description: 'the time', schema: timeResponseSchema } },
  errors: [400, 503],
  errorEnvelope: successError,
};

export const timeSkipReference: OperationReference = {
  summary: 'Move time forward (time-skipping mode)',
  description:
    'Exactly one of `seconds` (1 to a year) or `until` (IST, after the current time, at most a year ahead). Every timer that falls due fires in order; the answer comes once no open workflow has work outstanding. 503 with code 2051 when workflows are still busy after TIME_SKIP_TIMEOUT_SECONDS (time goes on to the target as they finish).',
  example: { seconds: 900 },
  responses: { 200: { description: 'skipped', schema: timeSkipResponseSchema } },
  errors: [400, 413, 415, 503],
  errorEnvelope: successError,
};
