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
    const logger = createLogger(config.observability.logLevel, 'worker');
    const rt = await openRuntime(config, logger, storeUri(config), temporalAddress(config));
    const deploymentVersion = deploymentVersionOf(config.temporal);
    const { worker, connection } = await createGatewayWorker({
      address: temporalAddress(config),
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      activityDeps: activityDeps(rt),
      masterKey: config.secrets.masterKey,
      previousMasterKeys: config.payloadCodec.previousMasterKeys,
      ...(config.payloadCodec.plaintextUntil ? { plaintextUntil: config.payloadCodec.plaintextUntil } : {}),
      tls: temporalTls(config.temporal),
      testServerClock: rt.timeTravel?.clock,
      deploymentVersion,
      ...(config.observability.workerMetricsAddress ? { metricsAddress: config.observability.workerMetricsAddress } : {}),
      ...(tracing ? { tracing } : {}),
    });
    await ensureWorkerSchedules(rt, (line) => logger.info(line));
    onShutdown(async () => worker.shutdown());
    logger.info({ taskQueue: config.temporal.taskQueue, deploymentVersion }, 'worker running');
    await worker.run();
    await connection.close();
    await rt.close();
    await tracing?.shutdown();
  })();
}
