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
  const connection = await NativeConnection.connect({ address: gw.rt.config.temporal.address! });
  const worker = await Worker.create({
    connection,
    namespace: gw.rt.config.temporal.namespace,
    taskQueue: o.taskQueue,
    dataConverter: gatewayDataConverter(gw.rt.config.secrets.masterKey, gw.rt.config.payloadCodec.previousMasterKeys),
    workflowsPath: o.workflowsPath,
    activities: o.activities,
  });
  return { worker, connection };
}
