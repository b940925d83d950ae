import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../support/doc-blocks';

/**
 * The repository stands on its own: no tracked file cites a document or path that only exists
 * outside it (the specification's rulings file, a shared folder beside the checkout, a machine's
 * absolute path). Rulings the code relies on are written in docs/contributors/design.md and cited
 * as `(design.md, <section>)`. The patterns are assembled from pieces so this file does not match
 * itself.
 */
const OUTSIDE: readonly { name: string; pattern: RegExp }[] = [
  { name: 'the rulings file outside the repository', pattern: new RegExp(['DECISIONS', '\\.md'].join('')) },
  { name: 'the specification outside the repository', pattern: new RegExp(['merchant-gateway-api', '\\.md'].join('')) },
  { name: 'a shared folder beside the repository', pattern: new RegExp(['\\.\\./', 'shared\\b'].join('')) },
  { name: "a machine's absolute path", pattern: new RegExp(['/', 'work/'].join('')) },
  { name: 'the architecture notes outside the repository', pattern: new RegExp(['ARCHITECTURE', '(\\.md| principle)'].join('')) },
];

/**
 * Recorded Temporal histories keep the stack traces of the machine that recorded them: data about
 * a run, not a reference for a reader. Every other file is checked.
 */
const RECORDED = /^test\/workflows\/histories\/.*\.json$/;

/** Every path-like mention in `text` that reaches outside the repository, as `line: name`. */
export function outsideReferences(text: string, isRecording = false): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const { name, pattern } of OUTSIDE) {
      if (isRecording && name === "a machine's absolute path") continue;
      if (pattern.test(line)) found.push(`${i + 1}: ${name}`);
    }
  });
  return found;
}

function trackedTextFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  return listed
    .split('\0')
    .filter((f) => f !== '' && !f.split('/').includes('node_modules'))
    .filter((f) => {
      try {
        return lstatSync(path.join(PROJECT_ROOT, f)).isFile();
      } catch {
        return false; // deleted in the work tree, not yet committed
      }
    });
}

describe('The repository stands on its own', () => {
  it('no tracked file cites the rulings file, the specification or a path outside the repository', () => {
    const files = trackedTextFiles();
    assert.ok(files.length > 100, `git ls-files listed only ${files.length} files`);
    const problems: string[] = [];
    for (const file of files) {
      const bytes = readFileSync(path.join(PROJECT_ROOT, file));
      if (bytes.includes(0)) continue; // binary (images, fonts)
      for (const hit of outsideReferences(bytes.toString('utf8'), RECORDED.test(file))) problems.push(`${file}:${hit}`);
    }
    assert.deepEqual(problems, [], 'write the ruling into docs/contributors/design.md and cite it as (design.md, <section>)');
  });

  it('sees each kind of outside reference (its own self-test)', () => {
    const cited = ['see ', 'DECISIONS', '.md, Checkout'].join('');
    assert.deepEqual(outsideReferences(`ok\n${cited}`), ['2: the rulings file outside the repository']);
    assert.equal(outsideReferences(['/', 'work/shared/spec/x'].join('')).length, 1);
    assert.equal(outsideReferences(['../', 'shared/ARCH'].join('')).length, 1);
    assert.equal(outsideReferences(['at f (/', 'work/main/src/x.ts:1:2)'].join(''), true).length, 0);
    assert.deepEqual(outsideReferences('(design.md, Checkout) and ../../src/domain/x'), []);
  });
});
