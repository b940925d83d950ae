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
  /** What each side does per operation (describeWork in work.ts), so a reader sees whether they compare like for like. */
  work?: { measured: string; ceiling: string };
  /** The two absolute figures the ratio is made of, in the unit the labels give (per second, ms, ...). */
  values?: { measured: number; ceiling: number };
}

/** One side of a row: its figure, the label printing it, and what it does. */
export interface Side {
  label: string;
  value: number;
  work?: string;
}

export function ratioRow(path: string, measured: Side, ceiling: Side, target: { atLeast?: number; atMost?: number }): BenchRow {
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
    ...(measured.work !== undefined || ceiling.work !== undefined
      ? { work: { measured: measured.work ?? 'not described', ceiling: ceiling.work ?? 'not described' } }
      : {}),
    values: { measured: Number(measured.value.toFixed(3)), ceiling: Number(ceiling.value.toFixed(3)) },
  };
}

/** Prints the table and a MET/MISSED line per row, records the run; returns whether every target was met. */
export function report(rows: BenchRow[]): boolean {
  recordRun(rows);
  console.table(
    rows.map(({ met, work, values, ...r }) => ({
      ...r,
      'measured does': work?.measured ?? 'not described',
      'ceiling does': work?.ceiling ?? 'not described',
      result: met ? 'MET' : 'MISSED',
    })),
  );
  for (const r of rows) {
    console.log(
      `${r.met ? 'MET' : 'MISSED'}: ${r.path} ratio ${r.ratio} (target ${r.target}): ${r.measured} against ${r.ceiling}`,
    );
    console.log(`  measured side: ${r.work?.measured ?? 'not described'}`);
    console.log(`  ceiling side:  ${r.work?.ceiling ?? 'not described'}`);
  }
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
