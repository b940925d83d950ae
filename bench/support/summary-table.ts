import type { RecordedRun } from './results-file';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Whether a ratio meets a row's target text (`>= x`, `<= x`, or `reported`). */
function meets(ratio: number, target: string): boolean {
  return target.split(', ').every((part) => {
    const [op, bound] = part.split(' ');
    if (op === '>=') return ratio >= Number(bound);
    if (op === '<=') return ratio <= Number(bound);
    return true;
  });
}

/** What every row of `bench:cost -- --cluster` ends with (bench/cost/rows.ts). */
export const CLUSTER_ROW_SUFFIX = ', Temporal as a cluster';

/**
 * A row's name across runs. Runs recorded before 2026-12-04 named the QR bench's status row with its
 * call count (`status API p99 beside the batch (1299 calls)`), and the settlement's events row with
 * its count of workflow runs (`events of the largest of 3 settlement workflow run(s)`), a figure of
 * the run, and without its day's size (then `SETTLEMENT_BENCH_DAY`, default a million): each read
 * as the row named as now.
 * And `bench:cost -- --cluster` runs recorded then named only their ceiling rows for the topology:
 * each row of such a run (one with any row so named) is read as the cluster's, never merged with the
 * single-process stack's.
 */
export function rowName(path: string, run: Pick<RecordedRun, 'script' | 'rows' | 'settings'>): string {
  const name = path
    .replace(/^(status API p99 beside the batch) \(\d+ calls\)$/, '$1')
    .replace(
      /^events of the largest of \d+ settlement workflow run\(s\)/,
      `events of the largest settlement workflow run, a ${run.settings.SETTLEMENT_BENCH_DAY ?? '1000000'}-order day,`,
    );
  const clusterRun = run.script === 'bench/cost.ts' && run.rows.some((r) => r.path.endsWith(CLUSTER_ROW_SUFFIX));
  return clusterRun && !name.endsWith(CLUSTER_ROW_SUFFIX) ? `${name}${CLUSTER_ROW_SUFFIX}` : name;
}

/**
 * The markdown table of every recorded row: per script and row, how many runs, the median ratio and
 * its spread (lowest to highest), the target, and MET or MISSED by the median. Rows in file order.
 */
export function summaryTable(runs: readonly RecordedRun[]): string {
  const byRow = new Map<string, { script: string; path: string; target: string; ratios: number[]; last: string }>();
  for (const run of runs)
    for (const row of run.rows) {
      const key = `${run.script}\u0000${rowName(row.path, run)}\u0000${row.target}`;
      const entry = byRow.get(key) ?? {
        script: run.script,
        path: rowName(row.path, run),
        target: row.target,
        ratios: [],
        last: '',
      };
      entry.ratios.push(row.ratio);
      entry.last = run.at.slice(0, 10);
      byRow.set(key, entry);
    }
  const lines = [
    '| script | row | runs | median ratio | spread | target | result (median) | last run |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const e of byRow.values()) {
    const m = Number(median(e.ratios).toFixed(3));
    const spread = `${Math.min(...e.ratios)} to ${Math.max(...e.ratios)}`;
    const cell = (t: string) => t.replaceAll('|', '\\|');
    lines.push(
      `| ${cell(e.script)} | ${cell(e.path)} | ${e.ratios.length} | ${m} | ${spread} | ${e.target} | ${meets(m, e.target) ? 'MET' : 'MISSED'} | ${e.last} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The sibling table: per script and row, what each side did in the last run that described it, and
 * the median of the absolute figures each ratio was made of (the labels' unit), over the runs that
 * recorded them. Rows in file order, as in the summary.
 */
export function workTable(runs: readonly RecordedRun[]): string {
  const byRow = new Map<
    string,
    { script: string; path: string; work?: { measured: string; ceiling: string }; measured: number[]; ceiling: number[] }
  >();
  for (const run of runs)
    for (const row of run.rows) {
      const key = `${run.script}\u0000${rowName(row.path, run)}\u0000${row.target}`;
      const entry = byRow.get(key) ?? { script: run.script, path: rowName(row.path, run), measured: [], ceiling: [] };
      if (row.work) entry.work = row.work;
      if (row.values) {
        entry.measured.push(row.values.measured);
        entry.ceiling.push(row.values.ceiling);
      }
      byRow.set(key, entry);
    }
  const lines = [
    '| script | row | measured side does | ceiling side does | median figures, measured / ceiling |',
    '|---|---|---|---|---|',
  ];
  const cell = (t: string) => t.replaceAll('|', '\\|');
  for (const e of byRow.values()) {
    const figures = e.measured.length
      ? `${Number(median(e.measured).toFixed(3))} / ${Number(median(e.ceiling).toFixed(3))} (${e.measured.length} runs)`
      : 'not recorded';
    lines.push(
      `| ${cell(e.script)} | ${cell(e.path)} | ${cell(e.work?.measured ?? 'not recorded')} | ${cell(e.work?.ceiling ?? 'not recorded')} | ${figures} |`,
    );
  }
  return lines.join('\n');
}

export const SUMMARY_START = '<!-- bench-summary:start (generated by npm run bench:summary from bench/results.jsonl) -->';
export const SUMMARY_END = '<!-- bench-summary:end -->';

/** The document with its summary section replaced by the table of `runs`. */
export function withSummary(doc: string, runs: readonly RecordedRun[]): string {
  const start = doc.indexOf(SUMMARY_START);
  const end = doc.indexOf(SUMMARY_END);
  if (start < 0 || end < start) throw new Error('the benchmarks document has no summary markers');
  // Prettier would align the table's columns; the generated text is kept as generated.
  const table = `<!-- prettier-ignore-start -->\n${summaryTable(runs)}\n\nWhat each side of a row does, and the figures its ratio is made of:\n\n${workTable(runs)}\n<!-- prettier-ignore-end -->`;
  return `${doc.slice(0, start + SUMMARY_START.length)}\n\n${table}\n\n${doc.slice(end)}`;
}

export const parseResults = (text: string): RecordedRun[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RecordedRun);
