import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Config } from '../config';
import { ApiError } from '../domain/api-errors';
import { settlementId, type SettlementRun } from '../domain/settlement';
import { captureWindow } from '../domain/settlement-calendar';
import type { FeePlan, MerchantFeePlan } from '../domain/settlement-fees';
import { settlementCalendar } from '../config-settlements';
import type { SettlementRepository } from '../store/settlement-repository';
import type { SettlementSettingsRepository } from '../store/settlement-settings-repository';
import { releaseSettlement, runSettlement } from '../temporal/settlement-client';
import { settlementAttention, type SettlementAttentionDeps } from './settlement-attention';

export interface SettlementOperationDeps extends SettlementAttentionDeps {
  settlements: SettlementRepository;
  settings: SettlementSettingsRepository;
  config: {
    settlements: Pick<Config['settlements'], 'feePlan' | 'days' | 'holidays'>;
    temporal: Pick<Config['temporal'], 'taskQueue'>;
  } & SettlementAttentionDeps['config'];
  temporal: Client;
  now: () => Date;
}

/** What an operator does with settlements (the ops API and, through it, the CLI). */
export function settlementOperations(deps: SettlementOperationDeps) {
  const { settings, settlements } = deps;
  const fallbackPlan = deps.config.settlements.feePlan;
  const calendar = settlementCalendar(deps.config.settlements);
  const needing = settlementAttention(deps);
  return {
    /** The merchant's plan, or the configuration's default. */
    async feePlanOf(merchantIdentifier: string): Promise<MerchantFeePlan> {
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
      return wakeHeldSettlements(deps, merchantIdentifier);
    },

    /** Everything about settlements an operator must look at, each with its reason (src/usecases/settlement-attention.ts). */
    needsAttention: () => needing.needsAttention(),

    /**
     * Runs the merchant's settlement of a date through the settlement workflow (the same start as
     * the daily run, so through the payload codec): started, or already running, or already
     * completed (with the settlement's state). A date that is not a settlement date, or whose
     * capture window has not closed yet, is refused and nothing starts.
     */
    async run(merchantIdentifier: string, settlementDate: string): Promise<SettlementRun> {
      const window = captureWindow(calendar, settlementDate);
      if (!window)
        throw new ApiError('settlementRunRefused', `${settlementDate} is not a working day: no settlement has that date`);
      if (deps.now() < window.to)
        throw new ApiError(
          'settlementRunRefused',
          `the capture window of ${settlementDate} closes at ${window.to.toISOString()}: run it after that`,
        );
      const id = settlementId(merchantIdentifier, settlementDate);
      const outcome = await runSettlement(
        { temporal: deps.temporal, taskQueue: deps.config.temporal.taskQueue },
        {
          merchantIdentifier,
          settlementDate,
        },
      );
      return { settlementId: id, settlementDate, outcome, state: (await settlements.find(id))?.state ?? null };
    },

    differences: (date: string | undefined, limit: number) => settlements.differencesOn(date, limit),

    find: (settlementId: string) => settlements.find(settlementId),
  };
}

/**
 * Tells each of the merchant's settlements waiting in `held` to look again (after a release, or an
 * operator's early confirmation of a cooling account): each re-reads why it waits and goes on if
 * nothing holds it any more. Returns the settlements signalled.
 */
export async function wakeHeldSettlements(
  deps: { settlements: Pick<SettlementRepository, 'held'>; temporal: Client },
  merchantIdentifier: string,
) {
  const signalled: string[] = [];
  for (const s of await deps.settlements.held(merchantIdentifier)) {
    try {
      await releaseSettlement(deps.temporal, s._id);
      signalled.push(s._id);
    } catch (e) {
      // A held settlement whose workflow is gone (terminated by an operator): nothing waits to be told.
      if (!(e instanceof WorkflowNotFoundError)) throw e;
    }
  }
  return signalled;
}
