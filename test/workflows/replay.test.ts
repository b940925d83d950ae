import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { installWorkerRuntime } from '../../src/main/gateway-worker';
import { workflowBundle } from '../support/servers';

const dir = path.join(__dirname, 'histories');

/**
 * Histories recorded by earlier code (histories/record.ts; each file names its run) replay on
 * today's workflows without a nondeterminism error: a workflow running when a worker is upgraded
 * goes on. A history that ends in a failed task (the mandate race) replays too; its next task then
 * runs the new code.
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
