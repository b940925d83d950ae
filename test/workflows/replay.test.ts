import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { installWorkerRuntime } from '../../src/main/gateway-worker';
import { workflowBundle } from '../support/servers';

const dir = path.join(__dirname, 'histories');

/**
 * The histories of this build's scenarios (histories/record.ts; each file names its run) replay on
 * the workflow code without a nondeterminism error: a worker that takes over a running workflow
 * (a restart, an evicted cache) replays its history on the same build, because each workflow is
 * pinned to the build that started it (Worker Versioning). A change that fails a replay changes
 * the workflow's commands: it ships as a new build with its histories recorded again
 * (docs/contributors/workflow-changes.md), never behind a patch.
 */
describe('recorded workflow histories replay on the current code', function () {
  this.timeout(60_000);
  before(() => installWorkerRuntime());

  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    it(file.replace(/\.json$/, ''), async () => {
      const History = temporal.api.history.v1.History;
      const history = History.fromObject(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
      await Worker.runReplayHistory({ workflowBundle: await workflowBundle() }, history);
    });
  }
});
