/**
 * The money model's inputs (InvariantScope) filled from what the kill probes ran against the
 * production stack: the merchant they made, the receiver that heard its webhooks, the debits the
 * gateway accepted, the store (as the gateway reads it) and the Temporal namespace (over mTLS, the
 * gateway's client certificate). The bank's books are read over its admin API by the caller.
 */
import { MongoClient } from 'mongodb';
import type { Transaction } from '../../src/domain/transaction';
import type { StackSecrets } from '../../src/devstack/production/secrets';
import { gatewayEnvFile, readEnvFile } from '../../src/devstack/production/settings';
import type { StackState } from '../../src/devstack/production/stack';
import type { ReceivedCall } from '../support/receiver';
import type { InvariantScope } from '../support/money-model/scope';
import type { ModelDebit } from '../support/money-model/world';
import { connectStackTemporal } from './stack-temporal';

/** What the probes hold for the check: their merchant, its receiver's calls, the debits it was answered 1109 for. */
export interface ProbeRecords {
  merchant: { merchantIdentifier: string; secretKey: string };
  calls: ReceivedCall[];
  /** Order ids of the debits the gateway scheduled (answered 1109), in every probe. */
  debitsAccepted: string[];
  /**
   * The debits that fell due during a kill (their txnId): when the probe first saw each in the
   * bank's books, at or just after the bank booked it.
   */
  debitsSeenAtBank: Map<string, number>;
}

export interface ProbeScope {
  scope: InvariantScope;
  /** Reads the store again: the mandates and the accepted debits as the gateway holds them now. */
  refresh(stored: Map<string, Transaction>): Promise<string[]>;
  close(): Promise<void>;
}

export async function openProbeScope(state: StackState, secrets: StackSecrets, r: ProbeRecords): Promise<ProbeScope> {
  const settings = readEnvFile(gatewayEnvFile);
  const temporal = await connectStackTemporal(state, secrets);
  const mongo = await MongoClient.connect(
    `mongodb://gateway:${secrets.STORE_PASSWORD}@127.0.0.1:${state.ports.store}/?authMechanism=PLAIN&authSource=%24external`,
    { serverSelectionTimeoutMS: 10_000 },
  );
  const db = mongo.db(settings.MONGODB_DB ?? 'gateway');
  const m = r.merchant.merchantIdentifier;
  const scope: InvariantScope = {
    merchant: { merchantIdentifier: m },
    keys: [{ secretKey: r.merchant.secretKey, since: 0, requestedAt: 0 }],
    // The stack's merchant keeps the default body (a form); no probe rotates its key.
    webhookFormat: 'form',
    mandates: [],
    debits: [],
    reconciliationIds: [],
    settlements: [],
    // `waiting` is set by each look of the final check, from the bank's books then (waits-by-design.ts).
    benignTaskFailures: true,
    stack: {
      // The stack's simulator keeps its plain conduct: every approval reaches the gateway by its answer or callback.
      bank: { conduct: { conductOf: () => undefined } },
      // The receiver serves this merchant alone; the money model's receiver names the merchant in the path.
      receiver: {
        get calls() {
          return r.calls.map((c) => ({ ...c, url: `${c.url.split('?')[0]}/${m}` }));
        },
      },
      // The bank's books carry no time: a debit that fell due during a kill is timed by when the
      // probe first saw it there (at or after its booking: seen before its executionDate, it was early).
      debitBookedAt: r.debitsSeenAtBank,
      gw: { rt: { store: { db }, temporal } },
    },
  };
  const refresh = async (stored: Map<string, Transaction>) => {
    const mandates = await db
      .collection<{ orderId: string; merchantIdentifier: string; state: string }>('mandates')
      .find({ merchantIdentifier: m })
      .toArray();
    scope.mandates = mandates.map((x) => ({
      orderId: x.orderId,
      payer: '',
      ...(x.state === 'REVOKED' ? { revoked: { debitsAtBank: [] } } : {}),
    }));
    const byOrder = new Map([...stored.values()].map((t) => [t.orderId, t]));
    const problems: string[] = [];
    const debits: ModelDebit[] = [];
    for (const orderId of r.debitsAccepted) {
      const t = byOrder.get(orderId);
      if (!t?.executeAt) problems.push(`(3) debit ${orderId} was answered 1109, yet the gateway holds no debit of it`);
      else
        debits.push({
          orderId,
          mandateOrderId: t.instrument.kind === 'UPI_MANDATE' ? t.instrument.mandateOrderId : '',
          txnId: t.txnId,
          executeAtMs: t.executeAt.getTime(),
        });
    }
    scope.debits = debits;
    return problems;
  };
  return {
    scope,
    refresh,
    async close() {
      await mongo.close().catch(() => undefined);
      await temporal.connection.close().catch(() => undefined);
    },
  };
}
