import { NativeConnection, Worker } from '@temporalio/worker';
import { gatewayDataConverter } from '../../src/temporal/payload-codec';
import type { TestGateway } from '../../test/support/gateway';

/**
 * A worker of a bench's own workflows on the gateway's Temporal server, in this process, with the
 * gateway's payload codec (its client encrypts what it sends). Close `connection` when done.
 */
export async function createBenchWorker(
  gw: TestGateway,
  o: { taskQueue: string; workflowsPath: string; activities: object },
): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: gw.rt.config.TEMPORAL_ADDRESS! });
  const worker = await Worker.create({
    connection,
    namespace: gw.rt.config.TEMPORAL_NAMESPACE,
    taskQueue: o.taskQueue,
    dataConverter: gatewayDataConverter(gw.rt.config.MASTER_KEY, gw.rt.config.PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS),
    workflowsPath: o.workflowsPath,
    activities: o.activities,
  });
  return { worker, connection };
}
