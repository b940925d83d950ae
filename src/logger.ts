import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs to stdout (one line per event), the format log shippers expect. */
export function createLogger(level: string, name = 'gateway'): Logger {
  return pino({ name, level, base: { service: name } });
}
