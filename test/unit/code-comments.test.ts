import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../support/doc-blocks';

/**
 * Comments in the code say why it is as it is, in the present tense: not which issue changed it, nor
 * the figures of one benchmark run (those are in docs/contributors/benchmarks.md, rulings in
 * docs/contributors/design.md). The patterns are assembled from pieces so this file does not match
 * itself.
 */
const HISTORY: readonly { name: string; pattern: RegExp }[] = [
  { name: 'an issue number', pattern: new RegExp(['\\bissues?', ' #?\\d+'].join(''), 'i') },
  { name: 'a measured rate', pattern: new RegExp(['\\d[\\d.,]*\\s*(?:[a-z]+)?', '/s\\b'].join('')) },
  { name: 'a measured ratio', pattern: new RegExp(['\\b\\d+\\.\\d+ ?', '(?:times|x)\\b'].join('')) },
  { name: "a benchmark run's load", pattern: new RegExp(['load', ' average'].join(''), 'i') },
];

const FOLDERS = ['src', 'activities', 'workflows'];

/** Tokens after which a `/` divides; after any other it starts a regular expression. */
const ENDS_AN_OPERAND = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.Identifier,
  ts.SyntaxKind.ThisKeyword,
  ts.SyntaxKind.SuperKeyword,
  ts.SyntaxKind.NumericLiteral,
  ts.SyntaxKind.BigIntLiteral,
  ts.SyntaxKind.StringLiteral,
  ts.SyntaxKind.NoSubstitutionTemplateLiteral,
  ts.SyntaxKind.TemplateTail,
  ts.SyntaxKind.RegularExpressionLiteral,
  ts.SyntaxKind.CloseParenToken,
  ts.SyntaxKind.CloseBracketToken,
  ts.SyntaxKind.CloseBraceToken,
  ts.SyntaxKind.PlusPlusToken,
  ts.SyntaxKind.MinusMinusToken,
  ts.SyntaxKind.ExclamationToken,
]);

/**
 * The text of every comment in TypeScript source `text`, by TypeScript's scanner (no parse): a
 * template literal's parts and a regular expression are read as such, so a `//` inside them is no
 * comment.
 */
export function commentsOf(text: string): { line: number; text: string }[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  let line = 1;
  let counted = 0;
  const lineAt = (pos: number) => {
    for (; counted < pos; counted++) if (text.charCodeAt(counted) === 10) line++;
    return line;
  };
  const found: { line: number; text: string }[] = [];
  const templateDepths: number[] = [];
  let depth = 0;
  let previous = ts.SyntaxKind.Unknown;
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) {
      found.push({ line: lineAt(scanner.getTokenStart()), text: scanner.getTokenText() });
      continue;
    }
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia) continue;
    if (kind === ts.SyntaxKind.TemplateHead) templateDepths.push(depth);
    else if (kind === ts.SyntaxKind.OpenBraceToken) depth++;
    else if (kind === ts.SyntaxKind.CloseBraceToken) {
      if (templateDepths.at(-1) === depth) {
        kind = scanner.reScanTemplateToken(false);
        if (kind === ts.SyntaxKind.TemplateTail) templateDepths.pop();
      } else depth--;
    } else if ((kind === ts.SyntaxKind.SlashToken || kind === ts.SyntaxKind.SlashEqualsToken) && !ENDS_AN_OPERAND.has(previous))
      kind = scanner.reScanSlashToken();
    previous = kind;
  }
  return found;
}

/** Every history reference in the comments of `text`, as `line: name`. */
export function historyInComments(text: string): string[] {
  const problems: string[] = [];
  for (const c of commentsOf(text))
    for (const { name, pattern } of HISTORY) if (pattern.test(c.text)) problems.push(`${c.line}: ${name}`);
  return problems;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(PROJECT_ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.split(path.sep).includes('node_modules'))
    .map((f) => path.join(folder, f));
}

describe('Code comments say why, in the present tense', () => {
  it('no comment in src, activities or workflows cites an issue number or a benchmark run', () => {
    const files = FOLDERS.flatMap(sourceFiles);
    assert.ok(files.length > 100, `found only ${files.length} source files`);
    const problems = files.flatMap((f) =>
      historyInComments(readFileSync(path.join(PROJECT_ROOT, f), 'utf8')).map((p) => `${f}:${p}`),
    );
    assert.deepEqual(problems, [], 'say why in the present tense; figures go to benchmarks.md, rulings to design.md');
  });

  it('finds comments and nothing else (its own self-test)', () => {
    const issue = ['is', 'sue 35'].join('');
    const rate = ['4.35 deliveries', '/s'].join('');
    const ratio = ['2.4 ', 'times the cost'].join('');
    const text = [
      `// ${issue}: why`,
      `const a = '${issue}';`,
      `/** ${rate} */`,
      `const b = [1, // ${issue}`,
      `  \`//\${a}/${issue}\`, /[/]${issue}/.test(a) ? 1 / 2 : 2 / 1];`,
      `const c = { d: 1 }; /* ${issue} */`,
      `// ${ratio}`,
    ].join('\n');
    assert.deepEqual(historyInComments(text), [
      '1: an issue number',
      '3: a measured rate',
      '4: an issue number',
      '6: an issue number',
      '7: a measured ratio',
    ]);
    assert.deepEqual(historyInComments('// (design.md, Webhooks): 5 s before attempt 2\n'), []);
  });
});
