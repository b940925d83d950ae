import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..');

/**
 * The fenced code blocks of the README and docs/. The guides tag what the docs test runs
 * (docs/contributors/tests.md, "The guides are tested"):
 * - ```sh test: a command run against a test gateway, in the order of its file, one shell per file;
 *   ```sh test setup: run before every file's blocks (the shell helpers of docs/merchants/README.md);
 *   ```sh test time-skipping / ```sh test simulator: the file runs against a gateway in that mode.
 * - ```json expect: what the block before it prints last (a JSON line), as a subset ("…" is any value);
 *   ```text expect: lines the output of the block before it contains.
 * - ```sh no-run: a command the docs test cannot run here (it says where it is tested instead).
 */
export interface DocBlock {
  file: string;
  line: number;
  lang: string;
  tags: string[];
  text: string;
}

/** README.md, CONTRIBUTING.md and every Markdown file under docs/, relative to the project root. */
export function guideFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(PROJECT_ROOT, dir), { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.md') ? [path.join(dir, e.name)] : []))
      .sort();
  return ['README.md', 'CONTRIBUTING.md', ...walk('docs')];
}

export function codeBlocks(file: string): DocBlock[] {
  const lines = readFileSync(path.join(PROJECT_ROOT, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i]!);
    if (!open || open[1] === undefined) continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && !/^```\s*$/.test(lines[i]!)) body.push(lines[i]!);
    blocks.push({ file, line: start + 1, lang: open[1], tags: open[2]!.split(/\s+/).filter(Boolean), text: body.join('\n') });
  }
  return blocks;
}

/** Markdown without its fenced blocks and inline code (where link syntax is only text). */
export function proseOf(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```\s*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of markdown.replace(/^```[\s\S]*?^```\s*$/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = m[1]!
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
