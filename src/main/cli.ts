/**
 * Operator CLI (`npm run -s cli -- <command>`): a client of the gateway's operator API over HTTP.
 * Commands are in src/cli/commands; `--help` on any of them, every one listed in docs/operators/cli.md.
 * Exit status 0 done, 1 the gateway refused or could not be reached, 2 a usage error.
 */
import { CommanderError } from 'commander';
import { CliFailure } from '../cli/failures';
import { gatewayTarget } from '../cli/gateway-target';
import { OpsClient } from '../cli/ops-client';
import { createProgram } from '../cli/program';
import { USAGE_EXIT } from '../cli/validate';

async function main(argv: string[]): Promise<number> {
  let client: OpsClient | undefined;
  const program = createProgram({
    client: () => (client ??= new OpsClient(gatewayTarget(process.env))),
    print: (value) => process.stdout.write(`${JSON.stringify(value)}\n`),
    write: (text) => process.stdout.write(text),
    log: (line) => console.error(line),
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    // Commander has written its message (or the help) already.
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : USAGE_EXIT;
    console.error(e instanceof CliFailure ? e.message : `unexpected: ${(e as Error).stack ?? String(e)}`);
    return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  // Only a failure before the command runs (building the program) gets here.
  (e: Error) => {
    console.error(`unexpected: ${e.stack ?? String(e)}`);
    process.exitCode = 1;
  },
);
