import { makeContinueAsNewFunc, type Workflow } from '@temporalio/workflow';

/**
 * Continue-as-new whose next run starts on the deployment's current build. With Worker Versioning
 * (WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID) every run is pinned to the build that began it, so a
 * workflow that lives for months would keep an old build's workers up for months; its next run
 * takes the current version for its first task instead (AUTO_UPGRADE), then stays pinned to that
 * build. Each run replays on the code it began with, so no run ever needs a patch. An unversioned
 * worker's runs carry the option and nothing else changes.
 */
export function continueOntoCurrentBuild<F extends Workflow>(...args: Parameters<F>): Promise<never> {
  return makeContinueAsNewFunc<F>({ initialVersioningBehavior: 'AUTO_UPGRADE' })(...args);
}
