import type { OpsClient } from './ops-client';

/** What a command needs: the gateway (connected on first use, so usage errors need none) and the output streams. */
export interface CliContext {
  client(): OpsClient;
  /** One JSON value, one line on stdout: the default output of every command. */
  print(value: unknown): void;
  /** Text for a person on stdout (a table). */
  write(text: string): void;
  /** Progress and diagnostics on stderr, never mixed into the output. */
  log(line: string): void;
  /** The whole of standard input (a `-` file argument). */
  stdin(): string;
}
