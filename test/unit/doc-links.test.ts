import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { anchorsOf, codeBlocks, guideFiles, proseOf, PROJECT_ROOT } from '../support/doc-blocks';

/**
 * The README, CONTRIBUTING.md and docs/: every relative link reaches a file, every anchor a heading
 * of it, and every `npm run <script>` they name is a script of package.json (the root's, or sdk/'s
 * for the commands run in sdk/).
 */
describe('Documentation links (README.md, CONTRIBUTING.md and docs/)', () => {
  const files = guideFiles();

  it('finds the guides of every reader', () => {
    for (const dir of ['merchants', 'operators', 'testers', 'contributors']) {
      assert.ok(files.includes(`docs/${dir}/README.md`), `docs/${dir}/README.md`);
    }
  });

  it('every relative link and anchor resolves', () => {
    const broken: string[] = [];
    for (const file of files) {
      const prose = proseOf(readFileSync(path.join(PROJECT_ROOT, file), 'utf8'));
      for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
        const [linkPath, anchor] = target.split('#') as [string, string | undefined];
        const resolved = linkPath
          ? path.resolve(path.dirname(path.join(PROJECT_ROOT, file)), decodeURI(linkPath))
          : path.join(PROJECT_ROOT, file);
        if (!existsSync(resolved)) {
          broken.push(`${file}: ${target} (no such file)`);
          continue;
        }
        if (anchor === undefined) continue;
        if (!statSync(resolved).isFile() || !resolved.endsWith('.md')) {
          broken.push(`${file}: ${target} (an anchor into a file that is not Markdown)`);
          continue;
        }
        if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('every shell block of the guides is run by the docs test or says why not', () => {
    const untagged = files
      .flatMap(codeBlocks)
      .filter((b) => ['sh', 'bash', 'shell', 'http', 'console'].includes(b.lang))
      .filter((b) => !b.tags.includes('test') && !b.tags.includes('no-run'))
      .map((b) => `${b.file}:${b.line}`);
    assert.deepEqual(untagged, []);
  });

  it('every npm script they name exists', () => {
    const scripts = (dir: string) =>
      Object.keys(JSON.parse(readFileSync(path.join(PROJECT_ROOT, dir, 'package.json'), 'utf8')).scripts);
    const known = new Set([...scripts('.'), ...scripts('sdk')]);
    const missing: string[] = [];
    for (const file of files) {
      for (const m of readFileSync(path.join(PROJECT_ROOT, file), 'utf8').matchAll(
        /npm\s+run(?:\s+-s|\s+--silent)?\s+([\w:.-]+)/g,
      )) {
        if (!known.has(m[1]!)) missing.push(`${file}: npm run ${m[1]}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('the link check sees a broken link (its own self-test)', () => {
    assert.ok(anchorsOf('# Time travel (time-skipping mode)\n## `POST /x` and Y').has('time-travel-time-skipping-mode'));
    assert.ok(anchorsOf('## `POST /x` and Y').has('post-x-and-y'));
    assert.ok(!anchorsOf('## A\n').has('b'));
  });
});
