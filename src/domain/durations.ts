const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `0,5s,5m,2h` -> milliseconds; a bare number is seconds. */
export function parseDurationList(text: string): number[] {
  return text.split(',').map((part) => {
    const m = /^\s*(\d+)(ms|s|m|h)?\s*$/.exec(part);
    if (!m) throw new Error(`not a duration: ${part}`);
    return Number(m[1]) * UNIT_MS[m[2] ?? 's'];
  });
}
