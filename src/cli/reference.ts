import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { allCommands, commandPath, createProgram } from './program';

export const REFERENCE_FILE = path.resolve(__dirname, '..', '..', 'docs', 'operators', 'cli.md');

const INTRO = `# Operator CLI

<!-- Generated from the CLI's --help by \`npm run -s docs:cli\`; test/unit/cli-reference.test.ts fails when this file differs. -->

\`npm run -s cli -- <command>\` operates a running gateway through its operator API (\`/ops/v1\`, a
bearer operator token): one command per operation, over HTTP, so it acts on whichever gateway and mode
is running, local or deployed. It opens no store and no Temporal connection. Each command needs a
token of its job's scope (\`operator-tokens\` below; docs/operators/production.md lists them): a
token without it is refused with \`error 2019\`.

Which gateway:

- \`GATEWAY_URL\` (the operator listener, \`OPS_HOST:OPS_PORT\`, which staging and production never
  publish: run the CLI inside the private network or through an SSH tunnel) and \`OPS_TOKEN\` in the
  environment, e.g.
  \`GATEWAY_URL=http://127.0.0.1:3001 OPS_TOKEN=... npm run -s cli -- webhooks list --table\`;
- otherwise the gateway \`npm start\` runs (normal or \`--time-skipping\`): while it runs it writes its
  operator listener's address, mode and operator token to \`.data/gateway.json\` (\`DATA_DIR\` moves
  it) and removes the file when it stops. A \`GATEWAY_URL\` without \`OPS_TOKEN\` uses the development
  token in \`.data/ops.token\`.

Output: one JSON value on stdout per command (diagnostics such as "waiting" on stderr), so
\`| jq\` works; \`webhooks list --table\` is for reading. Exit status: \`0\` done; \`1\` the gateway
refused (\`error <code>: <text>\` from its envelope on stderr, e.g. \`error 2042: No such merchant\`), the
operator token was wrong, or the gateway could not be reached; \`2\` a usage error (the message and
\`(add --help for usage)\` on stderr; nothing was sent). \`--help\` on any command prints what follows.
`;

/** docs/operators/cli.md: the introduction, then every command's --help, as the CLI prints it. */
export function cliReference(): string {
  const program = createProgram({
    client: () => {
      throw new Error('the reference needs no gateway');
    },
    print: () => undefined,
    write: () => undefined,
    log: () => undefined,
    stdin: () => '',
  });
  const sections = allCommands(program)
    .filter((c) => c === program || c.commands.length === 0)
    .map((c) => `## \`${commandPath(c)}\`\n\n\`\`\`text\n${c.helpInformation().trimEnd()}\n\`\`\`\n`);
  return `${INTRO}\n${sections.join('\n')}`;
}

if (require.main === module) {
  writeFileSync(REFERENCE_FILE, cliReference());
  console.log(`wrote ${path.relative(process.cwd(), REFERENCE_FILE)}`);
}
