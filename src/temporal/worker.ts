import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities';

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activityDeps: ActivityDeps;
  /** A prebuilt bundle (tests bundle once and share it); otherwise workflows/ is bundled at start. */
  workflowBundle?: WorkflowBundleOption;
}

export const workflowsPath = require.resolve('../../workflows');

/** A worker for every workflow and activity of the gateway. Call `run()`; `shutdown()` drains it. */
export async function createGatewayWorker(o: WorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  installWorkerRuntime();
  const connection = await NativeConnection.connect({ address: o.address });
  const worker = await Worker.create({
    connection,
    namespace: o.namespace,
    taskQueue: o.taskQueue,
    activities: createActivities(o.activityDeps),
    ...(o.workflowBundle ? { workflowBundle: o.workflowBundle } : { workflowsPath }),
  });
  return { worker, connection };
}

let runtimeInstalled = false;

/**
 * Once per process, before the first connection: entry points decide when to stop (they also close
 * the API and the store), so the SDK must not act on SIGINT itself; its logs below WARN (webpack's
 * bundle report, state changes) stay out of the console.
 */
export function installWorkerRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({ shutdownSignals: [], logger: new DefaultLogger('WARN') });
}
