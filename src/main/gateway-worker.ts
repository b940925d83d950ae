import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type ActivityExecuteInput,
  type ActivityInterceptorsFactory,
  type TLSConfig,
  type WorkflowBundleOption,
} from '@temporalio/worker';
import type { Context } from '@temporalio/activity';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { OpenTelemetryActivityInboundInterceptor, makeWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import { createActivities, type ActivityDeps } from '../../activities';
import type { Tracing } from '../tracing/tracing';
import { gatewayDataConverter } from '../temporal/payload-codec';
import { connectingTo } from '../temporal/tls';
import type { TestServerClock } from '../temporal/test-server-clock';
import { workerDeploymentOptions } from '../temporal/worker-versioning';

export interface WorkerOptions {
  address: string;
  namespace: string;
  taskQueue: string;
  activityDeps: ActivityDeps;
  /** The codec key's source (MASTER_KEY): the worker reads and writes payloads as the clients do. */
  masterKey: string;
  /** Earlier MASTER_KEYs: payloads they sealed still decode (PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS). */
  previousMasterKeys?: readonly string[];
  /** Until when unencrypted payloads are still read (PAYLOAD_CODEC_PLAINTEXT_UNTIL); never when unset. */
  plaintextUntil?: Date;
  /** mTLS to the frontend (temporalTls of the configuration); plaintext when undefined. */
  tls?: TLSConfig;
  /** Worker Versioning (WORKER_DEPLOYMENT_NAME, WORKER_BUILD_ID): the version this worker runs as; unversioned when undefined. */
  deploymentVersion?: WorkerDeploymentVersion;
  /** A prebuilt bundle (tests bundle once and share it); otherwise workflows/ is bundled at start. */
  workflowBundle?: WorkflowBundleOption;
  /** Time-skipping mode: the test server's clock, re-read before every activity runs. */
  testServerClock?: TestServerClock;
  /** WORKER_METRICS_ADDRESS: where this process serves the SDK's Prometheus metrics (none when undefined). */
  metricsAddress?: string;
  /** Tracing on (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): workflows and activities continue their starter's trace. Needs `workflowsPath`, not a prebuilt bundle. */
  tracing?: Tracing;
  /** Tests only: wraps every activity run (the money model's worker crash), after the clock's. */
  activityInterceptors?: ActivityInterceptorsFactory[];
}

export const workflowsPath = require.resolve('../../workflows');
/** The Temporal OpenTelemetry interceptors of workflow code, bundled with the workflows when tracing is on. */
const workflowTracingInterceptors = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** A worker for every workflow and activity of the gateway. Call `run()`; `shutdown()` drains it. */
export async function createGatewayWorker(o: WorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  installWorkerRuntime(o.metricsAddress);
  const connection = await connectingTo(o.address, o.tls, () =>
    NativeConnection.connect({ address: o.address, ...(o.tls ? { tls: o.tls } : {}) }),
  );
  const worker = await Worker.create({
    connection,
    namespace: o.namespace,
    taskQueue: o.taskQueue,
    activities: createActivities(o.activityDeps),
    dataConverter: gatewayDataConverter(o.masterKey, o.previousMasterKeys, o.plaintextUntil),
    interceptors: {
      activity: [
        ...(o.tracing ? [(ctx: Context) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx) })] : []),
        ...(o.testServerClock ? [syncClockFirst(o.testServerClock)] : []),
        ...(o.activityInterceptors ?? []),
      ],
      ...(o.tracing ? { workflowModules: [workflowTracingInterceptors] } : {}),
    },
    ...(o.tracing ? { sinks: { exporter: makeWorkflowExporter(o.tracing.spanProcessor, o.tracing.resource) } } : {}),
    ...(o.workflowBundle ? { workflowBundle: o.workflowBundle } : { workflowsPath }),
    ...(o.deploymentVersion ? { workerDeploymentOptions: workerDeploymentOptions(o.deploymentVersion) } : {}),
  });
  return { worker, connection };
}

/**
 * On the test server an activity may run right after a skip moved time on, so it re-reads the
 * server's time first (its `now()` then agrees with the workflow that scheduled it). Workflows stay
 * cached as usual: without a cache every activation ends in an eviction, and a webhook attempt (a
 * local activity) finishing after its workflow was evicted is lost until the task times out.
 */
function syncClockFirst(clock: TestServerClock): ActivityInterceptorsFactory {
  const syncFirst = {
    execute: async (input: ActivityExecuteInput, next: (i: ActivityExecuteInput) => Promise<unknown>) => {
      await clock.sync();
      return next(input);
    },
  };
  return () => ({ inbound: syncFirst });
}

let runtimeInstalled = false;

/**
 * Once per process, before the first connection: entry points decide when to stop (they also close
 * the API and the store), so the SDK must not act on SIGINT itself; its logs below WARN (webpack's
 * bundle report, state changes) stay out of the console. The SDK core's own warnings go through the
 * same logger, on standard error with the rest (the core would print them on standard output).
 * With a metrics address the core serves its Prometheus metrics there (docs/operators/metrics.md):
 * counters keep the core's names (no `_total`), durations are in seconds.
 */
export function installWorkerRuntime(metricsAddress?: string): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  Runtime.install({
    shutdownSignals: [],
    logger: new DefaultLogger('WARN'),
    telemetryOptions: {
      logging: { forward: {}, filter: { core: 'WARN', other: 'ERROR' } },
      ...(metricsAddress ? { metrics: { prometheus: { bindAddress: metricsAddress, useSecondsForDurations: true } } } : {}),
    },
  });
}
