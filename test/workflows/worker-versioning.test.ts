import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { temporalCliPath } from '../../src/devstack/paths';
import type { LateUpdate } from '../../src/domain/webhook-late';
import type { MandateWorkflowInput } from '../../src/temporal/mandate-contract';
import { mandateStateQuery, notifyDebitUpdate } from '../../src/temporal/mandate-messages';
import { lateUpdateSignal } from '../../src/temporal/webhook-batch-contract';
import { workerDeploymentOptions } from '../../src/temporal/worker-versioning';
import { testTemporal, workflowBundle } from '../support/servers';

const run = promisify(execFile);
/** temporal.api.enums.v1.RoutingConfigUpdateState.ROUTING_CONFIG_UPDATE_STATE_COMPLETED */
const ROUTING_COMPLETED = 2;

/**
 * Worker Versioning on the dev server (the time-skipping test server has no Worker Deployments):
 * workers run with the gateway's deployment options (src/temporal/worker-versioning.ts), the
 * current version is set with the CLI command docs/operators/upgrades.md gives operators, and each
 * run's versioning info is read back from the server.
 */
describe('Worker Versioning (dev server)', function () {
  this.timeout(180_000);
  const suffix = randomBytes(4).toString('hex');
  const deploymentName = `gateway-test-${suffix}`;
  const taskQueue = `versioning-${suffix}`;
  const versionA: WorkerDeploymentVersion = { deploymentName, buildId: 'build-a' };
  const versionB: WorkerDeploymentVersion = { deploymentName, buildId: 'build-b' };
  const versionC: WorkerDeploymentVersion = { deploymentName, buildId: 'build-c' };
  let address: string;
  let client: Client;
  let connection: Connection;
  let nativeConnection: NativeConnection;
  const stops: (() => Promise<void>)[] = [];
  /** What each worker's activities did, by the build that ran them. */
  const ran: { build: string; what: string }[] = [];

  before(async () => {
    address = (await testTemporal()).address;
    connection = await Connection.connect({ address });
    client = new Client({ connection });
    nativeConnection = await NativeConnection.connect({ address });
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
    await nativeConnection?.close();
    await connection?.close();
  });

  const started = new Set<string>();
  /** A worker of one build (once) with fake activities that record which build ran them. */
  async function startWorker(version: WorkerDeploymentVersion) {
    const build = version.buildId;
    if (started.has(build)) return;
    started.add(build);
    const worker = await Worker.create({
      connection: nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      workerDeploymentOptions: workerDeploymentOptions(version),
      activities: {
        async ensureWorkflowsOfStalePayments() {
          ran.push({ build, what: 'sweep' });
          return { checked: 0 };
        },
        async deliverWebhookFirstAttempt(input: { late?: LateUpdate[] }) {
          ran.push({ build, what: `deliver ${(input.late ?? []).map((u) => u.orderId).join(',')}` });
          return { state: 'delivered', attempts: 1 };
        },
        // A mandate the payer approves at once, whose notifies the bank accepts.
        async requestMandateApproval() {
          return { approved: true };
        },
        async recordMandateState() {},
        async awaitNoDebitAtBank() {},
        async notifyMandateDebit() {
          return { accepted: true };
        },
        async createMandateDebit() {
          return { ours: true };
        },
        async startMandateDebit(input: { orderId: string }) {
          ran.push({ build, what: `start debit ${input.orderId}` });
        },
        async pendingMandateDebits(input: { orderIds: string[] }) {
          return input.orderIds;
        },
        async cancelMandateDebits() {},
      },
    });
    const running = worker.run();
    stops.push(async () => {
      worker.shutdown();
      await running;
    });
  }

  /** `temporal worker deployment set-current-version`, retried until the version's worker has polled. */
  async function setCurrentVersion(version: WorkerDeploymentVersion) {
    const args = ['worker', 'deployment', 'set-current-version', '--address', address, '--namespace', 'default'];
    args.push('--deployment-name', version.deploymentName, '--build-id', version.buildId, '--yes');
    for (let attempt = 0; ; attempt++) {
      try {
        await run(temporalCliPath, args);
        break;
      } catch (e) {
        if (attempt >= 100) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    // The new routing reaches the task queue's partitions after the command returns; a task
    // dispatched before then is not told its target version changed.
    for (let i = 0; i < 300; i++) {
      const { workerDeploymentInfo } = await client.workflowService.describeWorkerDeployment({
        namespace: 'default',
        deploymentName: version.deploymentName,
      });
      const routed = workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId === version.buildId;
      if (routed && workerDeploymentInfo?.routingConfigUpdateState === ROUTING_COMPLETED) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`the routing to ${version.buildId} never completed`);
  }

  async function versioningOf(handle: WorkflowHandle, runId?: string) {
    const described = await client.workflow.getHandle(handle.workflowId, runId).describe();
    const info = described.raw.workflowExecutionInfo?.versioningInfo;
    return {
      runId: described.runId,
      buildId: info?.deploymentVersion?.buildId,
      deploymentName: info?.deploymentVersion?.deploymentName,
      behavior: info?.behavior,
    };
  }

  async function until(check: () => boolean, what: string) {
    for (let i = 0; i < 300; i++) {
      if (check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.fail(`timed out waiting for ${what}`);
  }

  it('a workflow started while a build is current is pinned to it and run by its worker', async () => {
    await startWorker(versionA);
    await setCurrentVersion(versionA);
    const handle = await client.workflow.start('pendingPaymentsSweepWorkflow', {
      workflowId: `sweep-versioning-${suffix}`,
      taskQueue,
      args: [{ olderThanMs: 60_000, limit: 10 }],
    });
    assert.deepEqual(await handle.result(), { checked: 0 });
    assert.deepEqual(ran, [{ build: 'build-a', what: 'sweep' }]);
    const v = await versioningOf(handle);
    assert.equal(v.deploymentName, deploymentName);
    assert.equal(v.buildId, 'build-a');
    assert.equal(v.behavior, 1, 'VERSIONING_BEHAVIOR_PINNED');
  });

  it('a run stays on its build when another becomes current; continue-as-new moves it onto the current build', async () => {
    ran.length = 0;
    const update = (orderId: string): LateUpdate => ({ kind: 'txn', orderId, amountPaise: 100, at: new Date(0).toISOString() });
    const handle = await client.workflow.signalWithStart('webhookBatchWorkflow', {
      workflowId: `webhook-batch:versioning-${suffix}`,
      taskQueue,
      args: [{ merchantIdentifier: `m${suffix}`, windowMs: 300, signalsPerRun: 2 }],
      signal: lateUpdateSignal,
      signalArgs: [update('u0')],
    });
    await until(() => ran.length === 1, 'the first call');
    await startWorker(versionB);
    await setCurrentVersion(versionB);
    // The second update fills the run (signalsPerRun 2): build A takes it, pinned, and continues as new.
    await handle.signal(lateUpdateSignal, update('u1'));
    await until(() => ran.length === 2, 'the second call');
    assert.deepEqual(ran, [
      { build: 'build-a', what: 'deliver u0' },
      { build: 'build-b', what: 'deliver u1' },
    ]);
    const first = await versioningOf(handle, handle.signaledRunId);
    const next = await versioningOf(handle);
    assert.notEqual(next.runId, first.runId, 'the run continued as new');
    assert.equal(first.buildId, 'build-a', 'the first run stayed pinned to build A after B became current');
    assert.equal(first.behavior, 1);
    assert.equal(next.buildId, 'build-b', 'the next run started on the current build');
    assert.equal(next.behavior, 1, 'and is pinned there');
    await client.workflow.getHandle(handle.workflowId).terminate('the test is over');
  });

  it('an ACTIVE mandate pinned to an old build hands over to the current build at its next task', async () => {
    ran.length = 0;
    await startWorker(versionB);
    await setCurrentVersion(versionB);
    const input: MandateWorkflowInput = {
      merchantIdentifier: `m${suffix}`,
      orderId: `mandate-${suffix}`,
      txnId: `TXN${suffix}`,
      payerVpa: 'success@sandbox',
      frequency: 'Adhoc',
      validUntilMs: Date.now() + 365 * 86_400_000,
      productDescription: 'Milk',
      firstDebit: null,
      payerAnswerDelayMs: 1,
      debitRetryIntervalMs: 3_600_000,
      realtimeWebhook: false,
    };
    const handle = await client.workflow.start('mandateWorkflow', {
      workflowId: `mandate:versioning-${suffix}`,
      taskQueue,
      args: [input],
    });
    const waitForState = async (state: string) => {
      for (let i = 0; i < 300; i++) {
        if (
          (await client.workflow
            .getHandle(handle.workflowId)
            .query(mandateStateQuery)
            .catch(() => '')) === state
        )
          return;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.fail(`the mandate never became ${state}`);
    };
    await waitForState('ACTIVE');
    assert.equal((await versioningOf(handle)).buildId, 'build-b', 'started on the current build, B');
    await startWorker(versionC);
    await setCurrentVersion(versionC);
    // Nothing moves the mandate until its next task: a notify, answered by the run pinned to B.
    const notify = { orderId: `debit-${suffix}`, txnId: `TXN${suffix}D`, amountPaise: 25_000, productDescription: 'Milk' };
    const executeAtMs = Date.now() + 2 * 86_400_000;
    assert.deepEqual(await handle.executeUpdate(notifyDebitUpdate, { args: [{ ...notify, executeAtMs, autoExecute: true }] }), {
      kind: 'notified',
    });
    assert.deepEqual(ran, [{ build: 'build-b', what: `start debit debit-${suffix}` }]);
    // The next run takes the current build for its first task (AUTO_UPGRADE), then is pinned there.
    let next = await versioningOf(handle);
    for (let i = 0; i < 300 && (next.runId === handle.firstExecutionRunId || next.behavior !== 1); i++) {
      await new Promise((r) => setTimeout(r, 100));
      next = await versioningOf(handle);
    }
    const first = await versioningOf(handle, handle.firstExecutionRunId);
    assert.notEqual(next.runId, first.runId, 'the mandate continued as new');
    assert.equal(first.buildId, 'build-b');
    assert.equal(next.buildId, 'build-c', `its next run is on the current build: ${JSON.stringify({ first, next })}`);
    await waitForState('ACTIVE');
    await client.workflow.getHandle(handle.workflowId).terminate('the test is over');
  });
});
