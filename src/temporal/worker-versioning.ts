import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { WorkerDeploymentOptions } from '@temporalio/worker';

/** The deployment version a worker runs as: both settings, or none (the worker runs unversioned). */
export function deploymentVersionOf(config: {
  WORKER_DEPLOYMENT_NAME?: string;
  WORKER_BUILD_ID?: string;
}): WorkerDeploymentVersion | undefined {
  if (!config.WORKER_DEPLOYMENT_NAME || !config.WORKER_BUILD_ID) return undefined;
  return { deploymentName: config.WORKER_DEPLOYMENT_NAME, buildId: config.WORKER_BUILD_ID };
}

/**
 * Worker Versioning: every workflow is pinned to the build that started it, so a run replays only
 * on the code that wrote its history and a change to a workflow needs no patch
 * (docs/contributors/workflow-changes.md). Workflows that live long continue as new onto the current
 * build (workflows/continue-onto-current-build.ts).
 */
export function workerDeploymentOptions(version: WorkerDeploymentVersion): WorkerDeploymentOptions {
  return { useWorkerVersioning: true, version, defaultVersioningBehavior: 'PINNED' };
}
