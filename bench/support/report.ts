import { recordRun } from './results-file';

/** One hot path beside its ceiling from the same run, and whether the target ratio is met. */
export interface BenchRow {
  path: string;
  measured: string;
  ceiling: string;
  ratio: number;
  target: string;
  met: boolean;
  /** How far the ratio moved between the rounds it is the median of, where a row has rounds. */
  spread?: string;
}

export function ratioRow(
  path: string,
  measured: { label: string; value: number },
  ceiling: { label: string; value: number },
  target: { atLeast?: number; atMost?: number },
): BenchRow {
  const ratio = Number((measured.value / ceiling.value).toFixed(3));
  const met =
    (target.atLeast === undefined || ratio >= target.atLeast) && (target.atMost === undefined || ratio <= target.atMost);
  return {
    path,
    measured: measured.label,
    ceiling: ceiling.label,
    ratio,
    // Neither bound: a figure reported for scale, never a miss.
    target:
      [target.atLeast !== undefined ? `>= ${target.atLeast}` : '', target.atMost !== undefined ? `<= ${target.atMost}` : '']
        .filter(Boolean)
        .join(', ') || 'reported',
    met,
  };
}

/** Prints the table and a MET/MISSED line per row, records the run; returns whether every target was met. */
export function report(rows: BenchRow[]): boolean {
  recordRun(rows);
  console.table(rows.map(({ met, ...r }) => ({ ...r, result: met ? 'MET' : 'MISSED' })));
  for (const r of rows) console.log(`${r.met ? 'MET' : 'MISSED'}: ${r.path} ratio ${r.ratio} (target ${r.target})`);
  return rows.every((r) => r.met);
}

/** Runs a benchmark's main: exit 0 when every target was met, 1 on a miss or an error. */
export function runBench(main: () => Promise<boolean>): void {
  main().then(
    (ok) => process.exit(ok ? 0 : 1),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
