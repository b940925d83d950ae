import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * What is never written to a log, wherever it sits in a logged object (one or two levels down,
 * e.g. `headers.authorization` or `req.headers.cookie`): credentials, one-time tokens, cookies and
 * the checksums and signatures that authenticate a request.
 */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  '"set-cookie"',
  '"x-api-key"',
  '"x-bank-signature"',
  '"webhook-signature"',
  'token',
  'invitationUrl',
  'password',
  'secretKey',
  'apiKey',
  'checksum',
];
export const REDACTED_PATHS = SECRET_FIELDS.flatMap((f) => {
  const key = f.startsWith('"') ? `[${f}]` : `.${f}`;
  return [key.startsWith('.') ? f : key, `*${key}`, `*.*${key}`];
});

/** JSON logs to stdout (one line per event), the format log shippers expect; secrets redacted. */
export function createLogger(level: string, name = 'gateway', destination?: DestinationStream): Logger {
  return pino({ name, level, base: { service: name }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
