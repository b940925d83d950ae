import { CommanderError } from 'commander';
import { CliFailure } from './failures';
import { gatewayTarget } from './gateway-target';
import { OpsClient } from './ops-client';
import { createProgram } from './program';
import { USAGE_EXIT } from './validate';

/** Where a run of the CLI reads and writes: the process's own streams, or a test's buffers. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The whole of standard input, for a `-` file argument. */
  stdin(): string;
}

/**
 * Runs one command line of the operator CLI against the gateway `env` names and answers its exit
 * status: 0 done, 1 the gateway refused or could not be reached, 2 a usage error.
 */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  let client: OpsClient | undefined;
  const program = createProgram(
    {
      client: () => (client ??= new OpsClient(gatewayTarget(env))),
      print: (value) => io.stdout(`${JSON.stringify(value)}\n`),
      write: (text) => io.stdout(text),
      log: (line) => io.stderr(`${line}\n`),
      stdin: () => io.stdin(),
    },
    { writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text) },
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (e) {
    // Commander has written its message (or the help) already.
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : USAGE_EXIT;
    io.stderr(`${e instanceof CliFailure ? e.message : `unexpected: ${(e as Error).stack ?? String(e)}`}\n`);
    return 1;
  }
}
