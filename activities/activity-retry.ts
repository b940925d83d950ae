import { activityInfo, heartbeat } from '@temporalio/activity';

/**
 * Whether this run is a retry of the running activity: its earlier run may have done part of its
 * work (false outside an activity, as in a bench or test calling it directly).
 */
export function isActivityRetry(): boolean {
  try {
    return activityInfo().attempt > 1;
  } catch {
    return false;
  }
}

/** Heartbeats when called inside an activity (the SDK throttles them); nothing elsewhere (benchmarks, store tests). */
export function heartbeatIfActivity(): void {
  try {
    activityInfo();
  } catch {
    return;
  }
  heartbeat();
}
