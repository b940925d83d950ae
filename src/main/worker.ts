/** The Temporal worker process: every workflow and activity of the gateway on one task queue. */
import { tracing } from './tracing-first'; // first: see its comment
import { createLogger } from '../logger';
import { activityDeps, openRuntime } from './runtime';
import { ensureWorkerSchedules } from '../temporal/schedules';
import { createGatewayWorker } from './gateway-worker';
import { temporalTls } from '../temporal/tls';
import { deploymentVersionOf } from '../temporal/worker-versioning';
import { configOrExit, storeUri, temporalAddress } from './load-config';
import { onShutdown } from './shutdown';

if (require.main === module) {
  void (async () => {
    // The worker serves no operator API, so it never needs (nor should hold) the break-glass OPS_TOKEN.
    const config = configOrExit(process.env, false);
    const logger = createLogger(config.LOG_LEVEL, 'worker');
    const rt = await openRuntime(config, logger, storeUri(config), temporalAddress(config));
    const deploymentVersion = deploymentVersionOf(config);
    const { worker, connection } = await createGatewayWorker({
      address: temporalAddress(config),
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      activityDeps: activityDeps(rt),
      masterKey: config.MASTER_KEY,
      previousMasterKeys: config.PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS,
      ...(config.PAYLOAD_CODEC_PLAINTEXT_UNTIL ? { plaintextUntil: config.PAYLOAD_CODEC_PLAINTEXT_UNTIL } : {}),
      tls: temporalTls(config),
      testServerClock: rt.timeTravel?.clock,
      deploymentVersion,
      ...(config.WORKER_METRICS_ADDRESS ? { metricsAddress: config.WORKER_METRICS_ADDRESS } : {}),
      ...(tracing ? { tracing } : {}),
    });
    await ensureWorkerSchedules(rt, (line) => logger.info(line));
    onShutdown(async () => worker.shutdown());
    logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE, deploymentVersion }, 'worker running');
    await worker.run();
    await connection.close();
    await rt.close();
    await tracing?.shutdown();
  })();
}
