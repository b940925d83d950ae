import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { holdFileOf } from '../../src/devstack/production/build';
import { holdDown, killHeldDown } from '../production-stack/hold-down';

/** The kill probes' hold files (hold-down.ts): the supervisor's own file name, never left behind by a failed kill. */
describe("the kill probes' hold-down", () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(path.join(tmpdir(), 'hold-down-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('holds a process down under the file the supervisor reads, and releases it', () => {
    const release = holdDown({ dataDir }, 'Temporal History 1');
    assert.ok(existsSync(holdFileOf(dataDir, 'Temporal History 1')));
    release();
    assert.ok(!existsSync(holdFileOf(dataDir, 'Temporal History 1')));
  });

  it('releases the hold when the kill throws', () => {
    assert.throws(
      () =>
        killHeldDown({ dataDir }, 'worker-1', () => {
          throw new Error('no pid for worker-1');
        }),
      /no pid for worker-1/,
    );
    assert.ok(!existsSync(holdFileOf(dataDir, 'worker-1')), 'the hold file was removed');
    const held = killHeldDown({ dataDir }, 'worker-1', () => 42);
    assert.equal(held.pid, 42);
    assert.ok(existsSync(holdFileOf(dataDir, 'worker-1')));
    held.release();
  });
});
