import type { BankError } from '../protocol';
import type { SimulatorBooks } from './books';
import type { BankConductTable } from './conduct';
import type { FaultTable, Fault } from './faults';
import type { BankCallback } from '../protocol';

/** What the simulator's desks (payments, refunds, mandates) share: its books, conduct and timers. */
export interface SimulatorDesk {
  books: SimulatorBooks;
  conduct: BankConductTable;
  faults: FaultTable;
  log: (line: string) => void;
  /** Later work of the bank (a late answer, a payer on autopilot, a settling refund). */
  later: (ms: number, work: () => void) => void;
  /** Sends a callback (with the faults of its request: duplicates, out of order, lost). */
  notify: (url: string, callback: BankCallback, faults: Fault[]) => void;
  /** A REDIRECT without a returnUrl completes by itself after this long. */
  payerDelayMs: number;
  /** Refunds settle this long after the request (PENDING meanwhile); 0 answers them at once. */
  refundDelayMs: number;
  /** Where the simulator is reached (known once it listens). */
  baseUrl: () => string;
}

/** An answer of the protocol's error shape (`{error, message}`) with its HTTP status. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly error: BankError['error'],
    message: string,
  ) {
    super(message);
  }
}

/** A repeated id must come with the same contents as the first time (409 otherwise). */
export function requireSame<T extends Record<string, unknown>>(idName: string, first: T, again: T, keys: (keyof T)[]) {
  for (const k of keys) {
    if (JSON.stringify(first[k]) !== JSON.stringify(again[k])) {
      throw new HttpProblem(409, 'IDEMPOTENCY_CONFLICT', `${idName} was sent before with another ${String(k)}`);
    }
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
