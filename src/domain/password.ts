import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Dashboard passwords, hashed with node:crypto scrypt (no dependency). Stored form:
 * `scrypt$<N>$<r>$<p>$<salt>$<hash>` (base64url), so the cost can rise and old hashes still verify
 * (and are rehashed at the current cost on the next sign-in: needsRehash).
 *
 * The cost is N = 2^DASHBOARD_PASSWORD_COST with r = 8, p = 1: OWASP's current guidance is 2^17
 * (the default, and the least staging and production accept); a test run may set less.
 */
export const PASSWORD_COST_GUIDANCE = 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

/**
 * At most this many derivations run at once in a process (each takes 128 MiB and a core for a
 * while at 2^17), and at most QUEUE_LIMIT wait; more is refused at once (PasswordWorkBusy), so a
 * burst of guesses cannot pile up memory and CPU.
 */
export const CONCURRENT_DERIVATIONS = 2;
const QUEUE_LIMIT = 32;

export class PasswordWorkBusy extends Error {
  constructor() {
    super('too many password checks at once');
    this.name = 'PasswordWorkBusy';
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT_DERIVATIONS) {
    if (waiting.length >= QUEUE_LIMIT) throw new PasswordWorkBusy();
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running++;
  }
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter (running stays), or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

const derive = (password: string, salt: Buffer, o: ScryptOptions & { N: number; r: number }, length: number) =>
  inSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        // scrypt needs 128 * N * r bytes; twice that leaves room.
        scrypt(password.normalize('NFC'), salt, length, { ...o, maxmem: 256 * o.N * o.r }, (e, key) =>
          e ? reject(e) : resolve(key),
        ),
      ),
  );

export async function hashPassword(password: string, costLog2: number): Promise<string> {
  const salt = randomBytes(16);
  const o = { N: 2 ** costLog2, r: BLOCK_SIZE, p: PARALLELISM };
  const hash = await derive(password, salt, o, KEY_LENGTH);
  return ['scrypt', o.N, o.r, o.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

/** A stored hash's parameters, or null when it is not one of ours. */
function parse(stored: string) {
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  const o = { N: Number(N), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !salt || !hash || ![o.N, o.r, o.p].every((n) => Number.isSafeInteger(n) && n > 0)) return null;
  // Never more work than the guidance's (a hash in the store is trusted, but not to exhaust memory).
  if (o.N * o.r * o.p > 2 ** PASSWORD_COST_GUIDANCE * BLOCK_SIZE * 4) return null;
  return { ...o, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const h = parse(stored);
  if (!h) return false;
  const actual = await derive(password, h.salt, { N: h.N, r: h.r, p: h.p }, h.hash.length);
  return timingSafeEqual(actual, h.hash);
}

/** True when a (verified) hash was made at a lower cost than today's: the sign-in rehashes it. */
export function needsRehash(stored: string, costLog2: number): boolean {
  const h = parse(stored);
  return !h || h.N < 2 ** costLog2 || h.r < BLOCK_SIZE || h.hash.length < KEY_LENGTH;
}

/** A hash to verify against when the email is unknown, so an unknown account costs the same time as a wrong password. */
const decoys = new Map<number, Promise<string>>();
export const decoyPasswordHash = (costLog2: number) => {
  if (!decoys.has(costLog2)) decoys.set(costLog2, hashPassword(randomBytes(16).toString('hex'), costLog2));
  return decoys.get(costLog2)!;
};

/** Why a new password is refused, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Use at most ${PASSWORD_MAX_LENGTH} characters.`;
  return null;
}
