/**
 * Operator CLI (`npm run -s cli -- <command>`): a client of the gateway's operator API over HTTP.
 * Commands are in src/cli/commands; `--help` on any of them, every one listed in docs/operators/cli.md.
 * Exit status 0 done, 1 the gateway refused or could not be reached, 2 a usage error.
 */
import { readFileSync } from 'node:fs';
import { runCli } from '../cli/run';

runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: () => readFileSync(0, 'utf8'),
}).then(
  (code) => {
    process.exitCode = code;
  },
  // Only a failure before the command runs (building the program) gets here.
  (e: Error) => {
    console.error(`unexpected: ${e.stack ?? String(e)}`);
    process.exitCode = 1;
  },
);
