import { ApplicationFailure } from '@temporalio/workflow';
import type { MandateState } from '../src/domain/mandate';
import { MandateFailure } from '../src/temporal/mandate-contract';

/** The mandate workflow's helpers that need none of its state (workflows/mandate.ts). */

/** Debits a cancel or prune activity handles at once (well inside its 30 s). */
const DEBITS_PER_ACTIVITY = 200;

export function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += DEBITS_PER_ACTIVITY) out.push(items.slice(i, i + DEBITS_PER_ACTIVITY));
  return out;
}

export function requireActive(state: MandateState): void {
  if (state === 'INACTIVE')
    throw ApplicationFailure.create({ type: MandateFailure.INACTIVE, message: 'the mandate is inactive' });
  if (state !== 'ACTIVE')
    throw ApplicationFailure.create({ type: MandateFailure.NOT_ACTIVE, message: `the mandate is ${state}` });
}
