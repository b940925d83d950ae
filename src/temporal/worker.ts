import { NativeConnection, Worker, type WorkflowBundleOption } from '@temporalio/worker';
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
