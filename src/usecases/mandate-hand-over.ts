import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApiError } from '../domain/api-errors';
import { MandateFailure, mandateRefusal } from '../temporal/mandate-contract';

/** A mandate's run hands over to the next in well under a second; an update waits for it up to ~10 s. */
const HAND_OVER_ATTEMPTS = 100;
const HAND_OVER_PAUSE_MS = 100;

/**
 * Sends an update to a mandate's workflow (`send`), again while the run refuses it because it is
 * continuing as new: the next run takes it. Past ~10 s the caller gets 503 (2050) and may send again.
 */
export async function acrossHandOver<T>(send: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (e) {
      if (!(e instanceof WorkflowUpdateFailedError && refusalType(e) === MandateFailure.CONTINUING_AS_NEW)) throw e;
      if (attempt >= HAND_OVER_ATTEMPTS)
        throw new ApiError('dependencyUnavailable', 'the mandate is busy: send the request again');
      await new Promise((resolve) => setTimeout(resolve, HAND_OVER_PAUSE_MS));
    }
  }
}

/** The type of the failure a mandate's workflow refused an update with (its validator's). */
export const refusalType = (e: WorkflowUpdateFailedError) => mandateRefusal((e.cause as { type?: string } | undefined)?.type);
