/**
 * Which history shards a Temporal history host acquired, read from its log (the stack's
 * logs/<process>.log, appended to across restarts): the server logs `Acquired shard` with the
 * shard's id each time a host takes one, at start-up or when membership moves shards to it.
 */
import { openSync, readSync, closeSync, statSync } from 'node:fs';
import path from 'node:path';
import type { StackState } from '../../src/devstack/production/stack';

export interface ShardAcquired {
  shardId: number;
  /** When the host logged it (its own timestamp), in ms; NaN when the line carries none. */
  at: number;
}

export interface ShardLog {
  /** Where the log ends now: what is written after it is new. */
  mark(): number;
  /** The shards acquired in what was written after `from`. */
  acquiredSince(from: number): ShardAcquired[];
}

export function shardLog(state: StackState, processName: string): ShardLog {
  const file = path.join(state.dataDir, 'logs', `${processName.toLowerCase().replace(/\s+/g, '-')}.log`);
  return {
    mark: () => statSync(file).size,
    acquiredSince(from) {
      const fd = openSync(file, 'r');
      try {
        const size = statSync(file).size;
        const buf = Buffer.alloc(Math.max(0, size - from));
        readSync(fd, buf, 0, buf.length, from);
        return buf
          .toString('utf8')
          .split('\n')
          .filter((l) => l.includes('"Acquired shard"'))
          .map((l) => ({
            shardId: Number(/"shard-id":\s*(\d+)/.exec(l)?.[1] ?? -1),
            at: Date.parse(/"ts":\s*"([^"]+)"/.exec(l)?.[1] ?? ''),
          }));
      } finally {
        closeSync(fd);
      }
    },
  };
}

/**
 * Waits (polling every 250 ms) until the log holds at least `count` shards acquired after `from`,
 * then until `settleMs` pass with none more (a host takes several shards over a few seconds: the
 * whole move, not its first shard), or until `timeoutMs` passes.
 */
export async function shardsAcquired(
  log: ShardLog,
  from: number,
  count: number,
  timeoutMs: number,
  settleMs = 0,
): Promise<ShardAcquired[]> {
  const deadline = Date.now() + timeoutMs;
  let [seen, changedAt] = [0, Date.now()];
  for (;;) {
    const got = log.acquiredSince(from);
    if (got.length !== seen) [seen, changedAt] = [got.length, Date.now()];
    const settled = got.length >= count && Date.now() - changedAt >= settleMs;
    if (settled || Date.now() > deadline) return got;
    await new Promise((r) => setTimeout(r, 250));
  }
}
