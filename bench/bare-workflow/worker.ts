import { createBenchWorker } from '../support/bench-worker';
import type { TestGateway } from '../../test/support/gateway';
import { bareActivities } from './activities';

/**
 * Runs `fn` while a worker of the bare workflow polls `taskQueue` on the gateway's Temporal server,
 * with the gateway's payload codec (its client encrypts what it sends), in this process.
 */
export async function withBareWorkflowWorker<T>(gw: TestGateway, taskQueue: string, fn: () => Promise<T>): Promise<T> {
  const { worker, connection } = await createBenchWorker(gw, {
    taskQueue,
    workflowsPath: require.resolve('./workflows'),
    activities: bareActivities,
  });
  try {
    return await worker.runUntil(fn);
  } finally {
    await connection.close();
  }
}
