import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import type { Config } from '../config';
import type { FeePlan } from '../domain/settlement-fees';
import { defaultFeePlan } from '../settlement-runtime';
import { SettlementRepository } from '../store/settlement-repository';
import { SettlementSettingsRepository } from '../store/settlement-settings-repository';
import { releaseSettlementSignal } from '../temporal/settlement-contract';

export interface SettlementOperationDeps {
  store: { db: Db };
  config: Pick<Config, 'SETTLEMENT_FEE_PLAN'>;
  temporal: Client;
  now: () => Date;
}

/** What an operator does with settlements (the ops API and, through it, the CLI). */
export function settlementOperations(deps: SettlementOperationDeps) {
  const settings = new SettlementSettingsRepository(deps.store.db);
  const settlements = new SettlementRepository(deps.store.db);
  const fallbackPlan = defaultFeePlan(deps.config);
  return {
    /** The merchant's plan, or the configuration's default. */
    async feePlanOf(merchantIdentifier: string): Promise<{ source: 'merchant' | 'default'; feePlan: FeePlan }> {
      const s = await settings.get(merchantIdentifier);
      return s.feePlan ? { source: 'merchant', feePlan: s.feePlan } : { source: 'default', feePlan: fallbackPlan };
    },

    /** Applies to the merchant's settlements from their next claim (lines already claimed keep their fee). */
    setFeePlan: (merchantIdentifier: string, plan: FeePlan) => settings.setFeePlan(merchantIdentifier, plan, deps.now()),

    /**
     * Holds a merchant's settlements: each whose payout is not yet requested waits in `held` for a
     * release (at its opening, or before its payout); one whose payout was requested goes on, and
     * is returned (read after the flag is set, so one requested meanwhile is listed too).
     */
    async hold(merchantIdentifier: string): Promise<{ payoutRequested: string[] }> {
      await settings.setHeld(merchantIdentifier, true, deps.now());
      return { payoutRequested: await settlements.payoutRequestedIds(merchantIdentifier) };
    },

    /**
     * Releases a merchant's settlements: the flag first (a workflow re-reads it when told), then a
     * release signal to each settlement waiting in `held`. Returns the settlements signalled.
     */
    async release(merchantIdentifier: string): Promise<string[]> {
      await settings.setHeld(merchantIdentifier, false, deps.now());
      const signalled: string[] = [];
      for (const s of await settlements.held(merchantIdentifier)) {
        try {
          await deps.temporal.workflow.getHandle(s._id).signal(releaseSettlementSignal);
          signalled.push(s._id);
        } catch (e) {
          // A held settlement whose workflow is gone (terminated by an operator): nothing waits to be told.
          if (!(e instanceof WorkflowNotFoundError)) throw e;
        }
      }
      return signalled;
    },

    /**
     * Refused payouts not yet carried into a later settlement, held settlements, settlements the
     * daily run could not start, recent bank-file differences.
     */
    async needsAttention() {
      return {
        refused: await settlements.refusedNotCarried(100),
        held: await settlements.held(),
        notStarted: await settlements.startFailuresListed(100),
        differences: await settlements.differencesOn(undefined, 100),
      };
    },

    differences: (date: string | undefined, limit: number) => settlements.differencesOn(date, limit),

    find: (settlementId: string) => settlements.find(settlementId),
  };
}
