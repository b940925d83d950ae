import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchRow } from './report';

/** Every benchmark run's rows, one JSON line per run, committed with the code they measured. */
export const RESULTS_FILE = path.join(__dirname, '..', 'results.jsonl');

/** One recorded run: when, on what commit and machine, which script with which settings, every row. */
export interface RecordedRun {
  at: string;
  commit: string;
  /** Uncommitted changes were present: the figures are of the commit plus them. */
  dirty: boolean;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; loadAverage1m: number; node: string };
  script: string;
  /** The benchmark's knobs as set for this run (environment variables named *BENCH*). */
  settings: Record<string, string>;
  rows: BenchRow[];
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/**
 * The commit and state of the tree when the bench started: the code it loaded. Read at the end, a
 * run of an hour or more would name whatever was committed meanwhile.
 */
const started = {
  commit: git(['rev-parse', 'HEAD']) || 'unknown',
  // The results file itself changes with every run: a change there is not a change of the code measured.
  dirty: git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results.jsonl']) !== '',
};

/** Appends this run to bench/results.jsonl (BENCH_RECORD=0 leaves it out: a trial of the bench itself). */
export function recordRun(rows: BenchRow[]): void {
  if (process.env.BENCH_RECORD === '0') return;
  const run: RecordedRun = {
    at: new Date().toISOString(),
    ...started,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      loadAverage1m: Number(os.loadavg()[0]!.toFixed(2)),
      node: process.version,
    },
    script: path.relative(path.join(__dirname, '..', '..'), process.argv[1] ?? 'unknown'),
    settings: Object.fromEntries(
      Object.entries(process.env).filter((e): e is [string, string] => /BENCH/.test(e[0]) && e[1] !== undefined),
    ),
    rows,
  };
  appendFileSync(RESULTS_FILE, `${JSON.stringify(run)}\n`);
  console.log(`recorded in ${path.relative(process.cwd(), RESULTS_FILE)}`);
}
