import { InvalidArgumentError, type Command } from 'commander';
import type { z } from 'zod';
import { parseDurationList } from '../domain/durations';

/** Exit status of a usage error: the command line was wrong, nothing was sent. */
export const USAGE_EXIT = 2;

/** A usage error on `command` (message on stderr, exit status 2). */
export function usageError(command: Command, message: string): never {
  command.error(`error: ${message}`, { exitCode: USAGE_EXIT, code: 'cli.usage' });
}

/**
 * Validates a request with the API's own schema before anything is sent, naming the CLI's flags
 * (`flagOf` maps a body field to its flag) in the usage error.
 */
export function validated<S extends z.ZodType>(
  command: Command,
  schema: S,
  input: unknown,
  flagOf: Record<string, string>,
): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  usageError(
    command,
    parsed.error.issues
      .map((i) => {
        const field = String(i.path[0] ?? '');
        const missing = i.code === 'invalid_type' && (input as Record<string, unknown>)[field] === undefined;
        return field ? `${flagOf[field] ?? field}: ${missing ? 'required' : i.message}` : i.message;
      })
      .join('\n'),
  );
}

/** Option parsers: a bad value is commander's invalid-argument error (exit status 2). */
export function booleanArg(value: string): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new InvalidArgumentError('true or false');
}

export function wholeNumberArg(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('a whole number');
  return Number(value);
}

/** A wait such as 24h, 90m, 3600s or 0, in whole seconds (rounded up). */
export function waitSecondsArg(value: string): number {
  if (!/^\s*\d+(ms|s|m|h)?\s*$/.test(value)) throw new InvalidArgumentError('a wait such as 24h, 90m or 3600s');
  return Math.ceil(parseDurationList(value)[0] / 1000);
}
