import type { AuditActor } from './audit';

/**
 * A merchant's settlement bank account: where its settlements are paid. IFSC as the RBI writes it
 * (4 letters for the bank, a 0, 6 letters or digits for the branch); account number 9 to 18
 * digits. Only the last four digits are ever shown once it is stored.
 */
export const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;
export const ACCOUNT_NUMBER_PATTERN = /^\d{9,18}$/;

export interface SettlementAccountInput {
  ifsc: string;
  accountNumber: string;
  holderName: string;
}

/** What anyone but the bank connector sees of a stored account. */
export interface MaskedSettlementAccount {
  ifsc: string;
  accountLast4: string;
  /** `XXXXXX1234`: as many X as the hidden digits. */
  accountNumberMasked: string;
  holderName: string;
  updatedAt: Date;
  /** Who made the last change: `owner <email>`, or `operators <proposer> + <confirmer>` (null: stored before this was kept). */
  changedBy: string | null;
  /** Until when payouts to it wait (null: they do not, a first account or one an operator confirmed). */
  coolingUntil: Date | null;
}

/** A change an operator proposed, waiting for a second operator's confirmation. */
export interface PendingSettlementAccount {
  ifsc: string;
  accountLast4: string;
  accountNumberMasked: string;
  holderName: string;
  proposedBy: string;
  proposedAt: Date;
}

export function maskAccountNumber(accountNumber: string): string {
  return `${'X'.repeat(Math.max(0, accountNumber.length - 4))}${accountNumber.slice(-4)}`;
}

/**
 * Until when payouts to a changed account wait: SETTLEMENT_ACCOUNT_COOLING_HOURS after the change.
 * A first account (none before) does not cool: there is no earlier destination a stolen session
 * could divert money from, and without an account nothing is paid at all (payouts are refused and
 * their net carried), so waiting would only delay a new merchant's first payout.
 */
export function coolingUntilOf(hadAccount: boolean, at: Date, coolingHours: number): Date | null {
  return hadAccount && coolingHours > 0 ? new Date(at.getTime() + coolingHours * 3_600_000) : null;
}

/** A proposal not confirmed within this long lapses: an old one is no longer what anyone checked. */
export const PROPOSAL_LIFETIME_MS = 24 * 3_600_000;

/** Whether a proposal made at `proposedAt` may still be confirmed at `now`. */
export const proposalLive = (proposedAt: Date, now: Date) => now.getTime() - proposedAt.getTime() < PROPOSAL_LIFETIME_MS;

/** Whether payouts to the account still wait at `now`. */
export const isCooling = (coolingUntil: Date | null | undefined, now: Date): coolingUntil is Date =>
  coolingUntil instanceof Date && coolingUntil.getTime() > now.getTime();

/** The masked account (and an operator's change waiting for confirmation) as the ops API, the CLI and the dashboard show it. */
export interface SettlementAccountView {
  merchantIdentifier: string;
  settlementAccount:
    (Omit<MaskedSettlementAccount, 'updatedAt' | 'coolingUntil'> & { updatedAt: string; coolingUntil: string | null }) | null;
  pendingChange: (Omit<PendingSettlementAccount, 'proposedAt'> & { proposedAt: string }) | null;
}

/** Where a change came from: who, and the client address (null: not over HTTP). */
export interface ChangeOrigin {
  actor: AuditActor;
  from: string | null;
}

/** What a confirmation names: the proposal the operator checked, as the GET showed it. */
export interface ProposalNamed {
  proposedAt: string;
  accountLast4: string;
}
