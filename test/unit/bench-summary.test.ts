import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RESULTS_FILE, type RecordedRun } from '../../bench/support/results-file';
import {
  parseResults,
  SUMMARY_END,
  SUMMARY_START,
  summaryTable,
  withSummary,
  workTable,
} from '../../bench/support/summary-table';

const SUMMARY_START_AND_END = `${SUMMARY_START}\n${SUMMARY_END}`;

const run = (at: string, ratios: Record<string, number>): RecordedRun => ({
  at,
  commit: 'c',
  dirty: false,
  machine: { cpus: 2, cpuModel: 'x', memoryGiB: 24, loadAverage1m: 1, node: 'v20' },
  script: 'bench/x.ts',
  settings: {},
  rows: Object.entries(ratios).map(([p, ratio]) => ({
    path: p,
    measured: '',
    ceiling: '',
    ratio,
    target: '>= 0.8',
    met: ratio >= 0.8,
  })),
});

describe('Benchmark results: every run recorded, the summary generated from all of them', () => {
  it('summarises each row by the median of every run, with its spread, MET or MISSED by the median', () => {
    const table = summaryTable([
      run('2026-12-01T00:00:00Z', { a: 0.9, b: 0.5 }),
      run('2026-12-02T00:00:00Z', { a: 0.7, b: 0.95 }),
      run('2026-12-03T00:00:00Z', { a: 0.85 }),
    ]);
    assert.match(table, /\| bench\/x\.ts \| a \| 3 \| 0\.85 \| 0\.7 to 0\.9 \| >= 0\.8 \| MET \| 2026-12-03 \|/);
    // Two runs: the median is their mean, below the target although one run met it.
    assert.match(table, /\| bench\/x\.ts \| b \| 2 \| 0\.725 \| 0\.5 to 0\.95 \| >= 0\.8 \| MISSED \| 2026-12-02 \|/);
  });

  it("the QR status row recorded with its run's call count is one row with the runs named without it", () => {
    const table = summaryTable([
      run('2026-12-01T00:00:00Z', { 'status API p99 beside the batch (1299 calls)': 0.9 }),
      run('2026-12-02T00:00:00Z', { 'status API p99 beside the batch (1570 calls)': 0.8 }),
      run('2026-12-05T00:00:00Z', { 'status API p99 beside the batch': 0.85 }),
    ]);
    assert.match(table, /\| bench\/x\.ts \| status API p99 beside the batch \| 3 \| 0\.85 \|/);
    assert.doesNotMatch(table, /calls\)/);
  });

  it('the settlement events row recorded with its count of workflow runs is one row per day size', () => {
    const day = (r: RecordedRun, size?: string): RecordedRun => ({ ...r, settings: size ? { SETTLEMENT_BENCH_DAY: size } : {} });
    const table = summaryTable([
      day(run('2026-12-03T00:00:00Z', { 'events of the largest of 1 settlement workflow run(s) against 10000': 0.1 }), '200000'),
      day(run('2026-12-03T01:00:00Z', { 'events of the largest of 3 settlement workflow run(s) against 10000': 0.3 })),
      day(
        run('2026-12-05T00:00:00Z', { 'events of the largest settlement workflow run, a 1000000-order day, against 10000': 0.2 }),
      ),
    ]);
    assert.match(table, /\| events of the largest settlement workflow run, a 200000-order day, against 10000 \| 1 \| 0\.1 \|/);
    assert.match(table, /\| events of the largest settlement workflow run, a 1000000-order day, against 10000 \| 2 \| 0\.25 \|/);
  });

  it("a cost run on the cluster is never merged with the single process's: rows it recorded unnamed are read as the cluster's", () => {
    const cost = (at: string, ratios: Record<string, number>) => ({ ...run(at, ratios), script: 'bench/cost.ts' });
    const cluster = ', Temporal as a cluster';
    const table = summaryTable([
      cost('2026-12-03T00:00:00Z', { [`pgbench 1${cluster}`]: 0.8, 'commits per payment': 160 }),
      cost('2026-12-04T00:00:00Z', { 'pgbench 1': 0.9, 'commits per payment': 130 }),
      cost('2026-12-05T00:00:00Z', { [`pgbench 1${cluster}`]: 0.7, [`commits per payment${cluster}`]: 150 }),
    ]);
    assert.match(table, /\| commits per payment \| 1 \| 130 \|/);
    assert.match(table, /\| commits per payment, Temporal as a cluster \| 2 \| 155 \|/);
    assert.match(table, /\| pgbench 1, Temporal as a cluster \| 2 \| 0\.75 \|/);
  });

  it('a row with both bounds is MISSED above its upper one', () => {
    const r = run('2026-12-01T00:00:00Z', {});
    r.rows.push({ path: 'payout', measured: '', ceiling: '', ratio: 1.2, target: '>= 1, <= 1', met: false });
    assert.match(summaryTable([r]), /\| payout \| 1 \| 1\.2 \| 1\.2 to 1\.2 \| >= 1, <= 1 \| MISSED \|/);
  });

  it("beside the summary, what each side did in the last run that said so and the median of each side's figure", () => {
    const described = (at: string, measured: number, ceiling: number, does: string): RecordedRun => {
      const r = run(at, { a: measured / ceiling });
      r.rows[0] = { ...r.rows[0]!, work: { measured: does, ceiling: 'a loop | of one POST' }, values: { measured, ceiling } };
      return r;
    };
    const table = workTable([
      run('2026-11-30T00:00:00Z', { a: 0.9 }),
      described('2026-12-01T00:00:00Z', 40, 50, '1 workflow task, 2 local activities'),
      described('2026-12-02T00:00:00Z', 30, 60, '1 workflow task, 1 local activity'),
      described('2026-12-03T00:00:00Z', 20, 40, '1 workflow task, 1 local activity, a webhook'),
    ]);
    // The last description, the pipe in a cell escaped; the medians over the three runs that had figures.
    assert.match(
      table,
      /\| bench\/x\.ts \| a \| 1 workflow task, 1 local activity, a webhook \| a loop \\\| of one POST \| 30 \/ 50 \(3 runs\) \|/,
    );
    // A run recorded before rows said what they do leaves it unsaid, never guessed.
    assert.match(workTable([run('2026-11-30T00:00:00Z', { b: 0.9 })]), /\| b \| not recorded \| not recorded \| not recorded \|/);
    assert.match(
      withSummary(`${SUMMARY_START_AND_END}`, [described('2026-12-01T00:00:00Z', 40, 50, 'x')]),
      /\| a \| x \| a loop/,
    );
  });

  it('docs/contributors/benchmarks.md carries the summary of bench/results.jsonl as it is (npm run bench:summary)', () => {
    const doc = readFileSync(path.join(__dirname, '..', '..', 'docs', 'contributors', 'benchmarks.md'), 'utf8');
    const runs = existsSync(RESULTS_FILE) ? parseResults(readFileSync(RESULTS_FILE, 'utf8')) : [];
    assert.equal(doc, withSummary(doc, runs), 'the summary is stale: run npm run bench:summary');
  });
});
