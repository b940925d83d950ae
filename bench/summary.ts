/**
 * `npm run bench:summary`: rewrites the summary section of docs/contributors/benchmarks.md from
 * bench/results.jsonl (every recorded run; none left out), so the figures there are never picked.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RESULTS_FILE } from './support/results-file';
import { parseResults, withSummary } from './support/summary-table';

const doc = path.join(__dirname, '..', 'docs', 'contributors', 'benchmarks.md');
const runs = existsSync(RESULTS_FILE) ? parseResults(readFileSync(RESULTS_FILE, 'utf8')) : [];
writeFileSync(doc, withSummary(readFileSync(doc, 'utf8'), runs));
console.log(`${path.relative(process.cwd(), doc)}: ${runs.length} recorded runs summarised`);
