import { NativeConnection, Worker } from '@temporalio/worker';
import { gatewayDataConverter } from '../../src/temporal/payload-codec';
import type { TestGateway } from '../../test/support/gateway';
import { bareActivities } from './activities';

/**
 * Runs `fn` while a worker of the bare workflow polls `taskQueue` on the gateway's Temporal server,
 * with the gateway's payload codec (its client encrypts what it sends), in this process.
 */
export async function withBareWorkflowWorker<T>(gw: TestGateway, taskQueue: string, fn: () => Promise<T>): Promise<T> {
  const connection = await NativeConnection.connect({ address: gw.rt.config.TEMPORAL_ADDRESS! });
  try {
    const worker = await Worker.create({
      connection,
      namespace: gw.rt.config.TEMPORAL_NAMESPACE,
      taskQueue,
      dataConverter: gatewayDataConverter(gw.rt.config.MASTER_KEY, gw.rt.config.PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS),
      workflowsPath: require.resolve('./workflows'),
      activities: bareActivities,
    });
    return await worker.runUntil(fn);
  } finally {
    await connection.close();
  }
}
