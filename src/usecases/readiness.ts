import type { Client } from '@temporalio/client';

type Probe = 'ok' | 'unavailable';

/** Whether the store and Temporal answer now (a readiness probe): each asked once, at the same time. */
export async function readiness(deps: {
  pingStore: () => Promise<void>;
  temporal: Client;
}): Promise<{ store: Probe; temporal: Probe }> {
  const [store, temporal] = await Promise.all([
    deps.pingStore().then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    ),
    deps.temporal.workflowService.getSystemInfo({}).then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    ),
  ]);
  return { store, temporal };
}
