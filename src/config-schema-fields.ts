import { z } from 'zod';
import { parseDurationList } from './domain/durations';

/** Value types the configuration sections share (src/config-schema.ts combines the sections). */
export const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

export const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
export const port = z.coerce.number().int().min(0).max(65535);
export const hexKey = z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes)');
/** An instant with its offset, such as 2026-12-01T00:00:00Z. */
export const instant = z.iso
  .datetime({ offset: true })
  .transform((v) => new Date(v))
  .describe('an ISO 8601 instant with its offset, such as 2026-12-01T00:00:00Z');

/** One wait such as 5s or 24h (the schema's pattern has checked it) in milliseconds. */
export const firstDuration = (v: string): number => parseDurationList(v)[0];

/** `a, b,,c` -> ['a', 'b', 'c']. */
export const commaSeparated = (v: string): string[] =>
  v
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
