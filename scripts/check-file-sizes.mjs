// `npm run lint:sizes` (part of `npm run lint`): no source file in src/, workflows/ or activities/
// above MAX_LINES lines. A file that long does several jobs: split it by job (issue 33).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const MAX_LINES = 400;
const FOLDERS = ['src', 'workflows', 'activities'];
/** Files still above the limit, each with the size it may not grow past (remove as they are split). */
const KNOWN = {};

const root = path.resolve(import.meta.dirname, '..');
const files = FOLDERS.flatMap((folder) =>
  readdirSync(path.join(root, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|cts|js|mjs|cjs)$/.test(e.name))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/')),
);
const problems = [];
for (const file of files.sort()) {
  const text = readFileSync(path.join(root, file), 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const limit = KNOWN[file] ?? MAX_LINES;
  if (lines > limit) problems.push(`${file}: ${lines} lines (at most ${limit}): split it by job`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const listed = Object.keys(KNOWN).length;
console.log(
  `file sizes: ${files.length} files in ${FOLDERS.join(', ')}, none above ${MAX_LINES} lines` +
    (listed ? ` but the ${listed} listed in scripts/check-file-sizes.mjs, none grown` : ''),
);
