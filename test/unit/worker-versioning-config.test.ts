import { strict as assert } from 'node:assert';
import { loadConfig } from '../../src/config';
import { deploymentVersionOf, workerDeploymentOptions } from '../../src/temporal/worker-versioning';

const secrets = { MASTER_KEY: 'a'.repeat(64), OPS_TOKEN: 'o'.repeat(32) };

describe('Worker Versioning settings', () => {
  it('unset: the worker runs unversioned', () => {
    assert.equal(deploymentVersionOf(loadConfig({}, secrets).temporal), undefined);
  });

  it('both set: the worker runs as that deployment version, pinning the workflows it starts', () => {
    const c = loadConfig({ WORKER_DEPLOYMENT_NAME: 'gateway', WORKER_BUILD_ID: '2026-12-03.1' }, secrets);
    const version = deploymentVersionOf(c.temporal);
    assert.deepEqual(version, { deploymentName: 'gateway', buildId: '2026-12-03.1' });
    assert.deepEqual(workerDeploymentOptions(version!), {
      useWorkerVersioning: true,
      version: { deploymentName: 'gateway', buildId: '2026-12-03.1' },
      defaultVersioningBehavior: 'PINNED',
    });
  });

  it('half of it is refused, naming the missing one; a deployment name takes no dot', () => {
    assert.throws(
      () => loadConfig({ WORKER_DEPLOYMENT_NAME: 'gateway' }, secrets),
      /WORKER_BUILD_ID: required with WORKER_DEPLOYMENT_NAME/,
    );
    assert.throws(() => loadConfig({ WORKER_BUILD_ID: 'b1' }, secrets), /WORKER_DEPLOYMENT_NAME: required with WORKER_BUILD_ID/);
    assert.throws(
      () => loadConfig({ WORKER_DEPLOYMENT_NAME: 'pay.gateway', WORKER_BUILD_ID: 'b1' }, secrets),
      /WORKER_DEPLOYMENT_NAME: a name without spaces or dots/,
    );
  });
});
