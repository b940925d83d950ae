import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { removeStaleLockFile } from '../../src/devstack/production/postgresql';

describe("the production stack's PostgreSQL lock file (a restart after SIGKILL)", () => {
  let dir: string;
  const lockFile = () => path.join(dir, 'postmaster.pid');
  // postmaster.pid as PostgreSQL writes it: the pid first, then the data directory, start time, port...
  const writeLock = (pid: number) => writeFileSync(lockFile(), `${pid}\n${dir}\n1764750000\n15432\n`);
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'pg-lock-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('goes when the process it names is gone', () => {
    // A pid that was just in use and is not any more.
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    writeLock(gone);
    removeStaleLockFile(dir);
    assert.equal(existsSync(lockFile()), false);
  });

  it('stays while the process it names lives (the start then fails rather than run two servers on one directory)', () => {
    writeLock(process.pid);
    removeStaleLockFile(dir);
    assert.equal(existsSync(lockFile()), true);
  });

  it('is left alone when there is none', () => {
    assert.doesNotThrow(() => removeStaleLockFile(dir));
  });
});
