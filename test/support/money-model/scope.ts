import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { Transaction } from '../../../src/domain/transaction';
import type { ReceivedCall } from '../receiver';
import type { ModelDebit, ModelMandate } from './world';

/**
 * What the money invariants (invariants.ts) read besides the bank's books and the stored
 * transactions: the money model's World is one, and the kill probes' final check builds another
 * from what they ran against the production stack (test/production-stack/probe-scope.ts).
 */
export interface InvariantScope {
  merchant: { merchantIdentifier: string };
  /** The merchant's secret keys in the order they took force (World['keys']). */
  keys: { secretKey: string; since: number; requestedAt: number }[];
  /** The body format the merchant chose for its webhooks: `json` unless said. */
  webhookFormat?: 'json' | 'form';
  mandates: ModelMandate[];
  /** Debits the gateway accepted (1109). */
  debits: ModelDebit[];
  reconciliationIds: string[];
  settlements: string[];
  /**
   * A Pending order that waits by design when the check runs (a debit scheduled days ahead, a
   * checkout awaiting its payer before its deadline): it may be Pending and its workflow running.
   * The money model lets time run out instead: none waits there.
   */
  waiting?: (t: Transaction) => boolean;
  /** Whether a workflow task failure Temporal records while working as designed is excused (failed-tasks.ts). */
  benignTaskFailures?: boolean;
  stack: {
    bank: { conduct: { conductOf(txnId: string): string | undefined } };
    /** The receiver's calls; each call's path ends with the merchant's identifier (merchantOfCall). */
    receiver: { calls: ReceivedCall[] };
    /** When the bank booked each debit, in the gateway's time; a debit missing here is not timed. */
    debitBookedAt: Map<string, number>;
    gw: { rt: { store: { db: Db }; temporal: Client } };
  };
}
