import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import { ACCOUNT_CHANGED, accountChangedDeliveryId, type AccountChangedEvent } from '../domain/account-webhook';
import type { AuditActor } from '../domain/audit';
import {
  coolingUntilOf,
  isCooling,
  proposalLive,
  type MaskedSettlementAccount,
  type PendingSettlementAccount,
  type ChangeOrigin,
  type ProposalNamed,
  type SettlementAccountInput,
  type SettlementAccountView,
} from '../domain/settlement-account';
import type { AccountChange, SettlementAccountRepository } from '../store/settlement-account-repository';
import type { SettlementRepository } from '../store/settlement-repository';
import { startWebhookDeliveryWorkflow } from '../temporal/webhook-delivery-client';
import type { AuditTrail } from './audit-trail';
import { wakeHeldSettlements } from './settlement-operations';

export type { ChangeOrigin, ProposalNamed, SettlementAccountView };

/** The masked account (and an operator's change waiting for confirmation) as the ops API, the CLI and the dashboard show it. */
export function settlementAccountView(
  merchantIdentifier: string,
  a: MaskedSettlementAccount | null,
  pending: PendingSettlementAccount | null = null,
): SettlementAccountView {
  return {
    merchantIdentifier,
    settlementAccount: a
      ? { ...a, updatedAt: a.updatedAt.toISOString(), coolingUntil: a.coolingUntil?.toISOString() ?? null }
      : null,
    pendingChange: pending ? { ...pending, proposedAt: pending.proposedAt.toISOString() } : null,
  };
}

export interface SettlementAccountDeps {
  accounts: SettlementAccountRepository;
  audit: AuditTrail;
  /** The merchant's held settlements, woken when an operator confirms a cooling account early. */
  settlements: Pick<SettlementRepository, 'held'>;
  config: {
    settlements: Pick<Config['settlements'], 'accountCoolingHours'>;
    temporal: Pick<Config['temporal'], 'taskQueue'>;
  };
  temporal: Client;
  now: () => Date;
}

const actorName = (a: AuditActor) => (a.kind === 'staff' ? a.email : a.name);
const sameActor = (a: AuditActor, b: AuditActor) => a.kind === b.kind && actorName(a) === actorName(b);
/** The proposer of a change: the operator who proposed it, or the owner who made it. */
const proposerOf = (origin: ChangeOrigin, detail: Record<string, string>): AuditActor =>
  detail.proposedBy !== undefined ? { kind: 'operator', name: detail.proposedBy } : origin.actor;

/**
 * The merchant's settlement bank account: where its money goes, so every change needs proof. An
 * owner changes it with their password (checked by the dashboard before this is called); an
 * operator only proposes, and a second, different operator confirms. A change of an existing
 * account cools (payouts to it wait SETTLEMENT_ACCOUNT_COOLING_HOURS) unless an operator confirms
 * it early. Each step is an audit record naming the account by its last four digits only; each
 * change is an `account.changed` webhook to merchants opted in to settlement webhooks.
 */
export function settlementAccountUseCases(deps: SettlementAccountDeps) {
  const { accounts, audit } = deps;
  /** The pending proposal, masked, unless it has lapsed (null: none waits). */
  const pending = async (merchantIdentifier: string) => {
    const p = await accounts.readPendingMasked(merchantIdentifier);
    return p && proposalLive(p.proposedAt, deps.now()) ? p : null;
  };
  const view = async (merchantIdentifier: string) =>
    settlementAccountView(merchantIdentifier, await accounts.readMasked(merchantIdentifier), await pending(merchantIdentifier));

  const k: AccountKit = { deps, accounts, audit };

  return {
    /** An owner's change (their password already checked); null when the merchant does not exist. */
    async changeByOwner(merchantIdentifier: string, account: SettlementAccountInput, origin: ChangeOrigin) {
      const stored = await change(k, merchantIdentifier, account, `owner ${actorName(origin.actor)}`, origin, (c) =>
        accounts.set(merchantIdentifier, account, c),
      );
      return stored ? view(merchantIdentifier) : null;
    },

    /**
     * An operator's proposal, replacing any earlier one (a confirmation names the one it checked, so
     * the replaced one cannot be confirmed by mistake); nothing is paid to it until another operator
     * confirms it within PROPOSAL_LIFETIME_MS. Any applied change drops it.
     */
    async propose(merchantIdentifier: string, account: SettlementAccountInput, origin: ChangeOrigin) {
      if (!(await accounts.propose(merchantIdentifier, account, actorName(origin.actor), deps.now()))) return null;
      await audit.record('settlement_account.proposed', origin.actor, {
        merchantIdentifier,
        from: origin.from,
        detail: { accountLast4: account.accountNumber.slice(-4) },
      });
      return view(merchantIdentifier);
    },

    /**
     * A second operator's confirmation of the proposal it names (made at `proposedAt`, to the
     * account ending `accountLast4`), so a proposal put in its place meanwhile is never applied by
     * it. `noProposal` when none is pending (lapsed, or another confirmation applied it first),
     * `notNamed` when the pending one is not the one named, `sameOperator` when its proposer confirms.
     */
    async confirm(
      merchantIdentifier: string,
      named: ProposalNamed,
      origin: ChangeOrigin,
    ): Promise<SettlementAccountView | 'noProposal' | 'notNamed' | 'sameOperator'> {
      const p = await accounts.proposal(merchantIdentifier);
      if (!p || !proposalLive(p.proposedAt, deps.now())) return 'noProposal';
      if (p.proposedAt.getTime() !== Date.parse(named.proposedAt) || p.account.accountNumber.slice(-4) !== named.accountLast4)
        return 'notNamed';
      const confirmer = actorName(origin.actor);
      if (origin.actor.kind !== 'operator' || confirmer === p.proposedBy) return 'sameOperator';
      const by = `operators ${p.proposedBy} + ${confirmer}`;
      const stored = await change(
        k,
        merchantIdentifier,
        p.account,
        by,
        origin,
        (c) => accounts.applyProposal(merchantIdentifier, p.account, p.proposedAt, c),
        { proposedBy: p.proposedBy, proposedAt: p.proposedAt.toISOString() },
      );
      return stored ? view(merchantIdentifier) : 'noProposal';
    },

    /**
     * An operator's early confirmation of a cooling account (named by its last four digits, so the
     * account confirmed is the one the operator checked): its payouts no longer wait, and settlements
     * waiting for it go on. `notCooling` when no such account cools; `proposer` when the operator
     * asking proposed that change (the wait is what protects the merchant from that one operator).
     */
    async confirmEarly(
      merchantIdentifier: string,
      accountLast4: string,
      origin: ChangeOrigin,
    ): Promise<SettlementAccountView | 'notCooling' | 'proposer'> {
      const before = await accounts.readMasked(merchantIdentifier);
      if (!before || before.accountLast4 !== accountLast4 || !isCooling(before.coolingUntil, deps.now())) return 'notCooling';
      const { proposedBy, changedBy } = await accounts.proposerOf(merchantIdentifier);
      if (origin.actor.kind !== 'operator') return 'proposer';
      if (proposedBy ? sameActor(proposedBy, origin.actor) : changedBy?.startsWith(`operators ${origin.actor.name} + `))
        return 'proposer';
      if (!(await accounts.endCooling(merchantIdentifier, accountLast4, deps.now()))) return 'notCooling';
      await audit.record('settlement_account.confirmed', origin.actor, {
        merchantIdentifier,
        from: origin.from,
        detail: { accountLast4, coolingUntil: before.coolingUntil.toISOString() },
      });
      await wakeHeldSettlements(deps, merchantIdentifier);
      return view(merchantIdentifier);
    },

    /** The account masked, with any pending change. */
    view,
    /** An operator's change waiting for confirmation, masked (null: none, or it lapsed). */
    pending,
    /** The account masked (null: none set). */
    masked: (merchantIdentifier: string) => accounts.readMasked(merchantIdentifier),
  };
}

/** What a change of the account needs: the use cases' dependencies, the accounts, the audit trail. */
interface AccountKit {
  deps: SettlementAccountDeps;
  accounts: SettlementAccountRepository;
  audit: AuditTrail;
}

/** Stores the account (cooling when it replaces one) through `store`; the change's record once it is stored. */
async function change(
  k: AccountKit,
  merchantIdentifier: string,
  account: SettlementAccountInput,
  by: string,
  origin: ChangeOrigin,
  store: (c: AccountChange) => Promise<boolean>,
  detail: Record<string, string> = {},
): Promise<boolean> {
  const { deps, accounts, audit } = k;
  const before = await accounts.readMasked(merchantIdentifier);
  const at = deps.now();
  const coolingUntil = coolingUntilOf(before !== null, at, deps.config.settlements.accountCoolingHours);
  if (!(await store({ at, by, proposedBy: proposerOf(origin, detail), coolingUntil }))) return false;
  const accountLast4 = account.accountNumber.slice(-4);
  await audit.record('settlement_account.changed', origin.actor, {
    merchantIdentifier,
    from: origin.from,
    detail: {
      ...detail,
      accountLast4,
      previousAccountLast4: before?.accountLast4 ?? null,
      coolingUntil: coolingUntil?.toISOString() ?? null,
    },
  });
  if (await accounts.notifiesByWebhook(merchantIdentifier)) {
    const event: AccountChangedEvent = {
      event: ACCOUNT_CHANGED,
      merchantIdentifier,
      changedAt: at.toISOString(),
      changedBy: by,
      accountLast4,
      previousAccountLast4: before?.accountLast4 ?? '',
      coolingUntil: coolingUntil?.toISOString() ?? '',
    };
    await startWebhookDeliveryWorkflow(
      { temporal: deps.temporal, taskQueue: deps.config.temporal.taskQueue },
      { deliveryId: accountChangedDeliveryId(event), merchantIdentifier, orderId: '', accountChange: event },
    );
  }
  return true;
}
