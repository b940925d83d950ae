import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds of process trees, from /proc/<pid>/stat (Linux): for each live process of a tree its
 * utime + stime, plus cutime + cstime (what its children that exited and were reaped spent), so a
 * PostgreSQL backend that ended between two readings is still counted, in its postmaster's figure.
 */

/** Clock ticks per second of /proc's times (sysconf(_SC_CLK_TCK)); 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks. */
  ticks: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields count from after its last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const field = (n: number) => Number(fields[n - 3]);
    return { ppid: field(4), ticks: field(14) + field(15) + field(16) + field(17) };
  } catch {
    return undefined;
  }
}

/** Every live process's parent and ticks, read once. */
function allProcesses(): Map<number, ProcStat> {
  const all = new Map<number, ProcStat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) all.set(Number(name), stat);
  }
  return all;
}

/** CPU seconds of the trees rooted at each group's pids (a group: several processes, e.g. both API replicas). */
export function treeCpuSeconds(groups: Record<string, number[]>): Record<string, number> {
  const all = allProcesses();
  const children = new Map<number, number[]>();
  for (const [pid, s] of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  const treeTicks = (pid: number): number =>
    (all.get(pid)?.ticks ?? 0) + (children.get(pid) ?? []).reduce((n, c) => n + treeTicks(c), 0);
  return Object.fromEntries(
    Object.entries(groups).map(([group, pids]) => [group, pids.reduce((n, pid) => n + treeTicks(pid), 0) / TICKS_PER_SECOND]),
  );
}
