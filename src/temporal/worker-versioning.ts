import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { WorkerDeploymentOptions } from '@temporalio/worker';

/** The deployment version a worker runs as: both settings, or none (the worker runs unversioned). */
export function deploymentVersionOf(temporal: {
  workerDeploymentName?: string | undefined;
  workerBuildId?: string | undefined;
}): WorkerDeploymentVersion | undefined {
  if (!temporal.workerDeploymentName || !temporal.workerBuildId) return undefined;
  return { deploymentName: temporal.workerDeploymentName, buildId: temporal.workerBuildId };
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
