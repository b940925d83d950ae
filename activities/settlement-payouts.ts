import { ApplicationFailure } from '@temporalio/common';
import { BankFailure, type BankPayoutAnswer, type BankPayoutRequest } from '../src/bank/connector';
import { settlementId, type Settlement } from '../src/domain/settlement';
import { isCooling } from '../src/domain/settlement-account';
import type { BankPayouts } from '../src/bank/connector';
import type { PayoutAccountSeal } from '../src/store/settlement-account-repository';
import type { SettlementRepository } from '../src/store/settlement-repository';
import type { SettlementSettingsRepository } from '../src/store/settlement-settings-repository';
import type { SettlementWorkflowInput } from '../src/temporal/settlement-contract';

/**
 * The merchant's settlement bank account, opened (settle-merchant's reader, injected), with until
 * when payouts to it wait after a change (absent or null: they do not).
 */
export type SettlementAccountReader = (
  merchantIdentifier: string,
) => Promise<{ ifsc: string; accountNumber: string; holderName: string; coolingUntil?: Date | null } | null>;

/** What the payout activities need of the settlement activities' dependencies. */
export interface PayoutActivityDeps {
  settlementStore: SettlementRepository;
  settlementSettings: SettlementSettingsRepository;
  payouts: BankPayouts;
  settlementAccount: SettlementAccountReader;
  /** Seals the account a payout is requested to, on the settlement (every later request sends it). */
  payoutAccountSeal: PayoutAccountSeal;
  now: () => Date;
}

/**
 * The payout step's answer: held (nothing asked of the bank; `coolingUntil`, ISO 8601: the
 * account changed recently, and the payout waits until then or a release), or the bank's answer.
 */
export type PayoutStep = { held: true; coolingUntil?: string } | { held: false; answer: BankPayoutAnswer };

const pending = (why: string): BankPayoutAnswer => ({
  status: 'PENDING',
  utr: null,
  responseCode: '09',
  responseDescription: why,
});

/**
 * What a bank call's failure means for a payout: `refused` when the bank said it did not act (a
 * 4xx other than 409), `ask` when it holds something under the payoutId that is not this answer
 * (409: the id with other contents; an answer about another payout), null when it is not the
 * bank's word (retried by Temporal).
 */
function bankRefusal(e: unknown): { kind: 'refused'; status: string } | { kind: 'ask' } | null {
  if (!(e instanceof ApplicationFailure)) return null;
  if (e.type === BankFailure.ANSWER_MISMATCH) return { kind: 'ask' };
  if (e.type !== BankFailure.REQUEST_REFUSED) return null;
  const status = e.details?.[0];
  return status === 409 ? { kind: 'ask' } : { kind: 'refused', status: typeof status === 'number' ? String(status) : '4xx' };
}

/**
 * The settlement's payout (payoutId = the settlement id, so a retry after a crash is the same
 * payout). The first request stores the account on the settlement (sealed) and every later one
 * (an activity retry, a re-request of a payout the bank does not know, a continued run) sends
 * the stored amount and account: an account changed meanwhile never reaches the bank under the same
 * payoutId. A payout the bank refuses, or did not act on, ends `payout_refused` (carried forward),
 * never a failed workflow; an ambiguous answer is awaited (asked again), never refused.
 */
export function createPayoutActivities<Step>(
  deps: PayoutActivityDeps,
  shared: {
    applyHold: (id: string, merchantIdentifier: string) => Promise<boolean>;
    stepOf: (id: string) => Promise<Step>;
  },
) {
  const { applyHold, stepOf } = shared;
  const { settlementStore: store, now } = deps;
  return {
    /**
     * The payout step: while the merchant is held, an open settlement moves to `held` and nothing is
     * asked of the bank (the workflow waits for the release, then calls again); so it does while the
     * account cools (the workflow waits for its end or a release); otherwise the payout is
     * requested, the hold read once more before the bank is asked.
     */
    async requestSettlementPayoutUnlessHeld(input: SettlementWorkflowInput): Promise<PayoutStep> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      for (;;) {
        const s = await store.find(id);
        if (s && (s.state === 'open' || s.state === 'held') && (await applyHold(id, input.merchantIdentifier)))
          return { held: true };
        const answer = await requestPayout(deps, input);
        if (answer && 'coolingUntil' in answer) return { held: true, coolingUntil: answer.coolingUntil.toISOString() };
        if (answer) return { held: false, answer };
      }
    },

    /**
     * The bank's answer now about a PENDING payout. A bank that does not know it (404) is sent the
     * same request again (same payoutId, amount and account): the bank pays it once whatever the repeats.
     */
    async inquireSettlementPayout(input: SettlementWorkflowInput): Promise<BankPayoutAnswer> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      const answer = await lookUp(deps, id);
      if (answer) return answer;
      const s = await store.find(id);
      if (s?.state !== 'payout_requested') return pending('not known to the bank yet');
      return send(deps, await storedRequest(deps, s), { first: false });
    },

    /** Records the bank's final answer: paid with its UTR (on the settlement; lines read it there), or refused and carried forward. */
    async recordSettlementPayout(input: SettlementWorkflowInput & { answer: BankPayoutAnswer }): Promise<Step> {
      const id = settlementId(input.merchantIdentifier, input.settlementDate);
      if (input.answer.status === 'PAID') await store.recordPaid(id, input.answer.utr ?? '', now());
      else if (input.answer.status === 'REFUSED')
        await store.recordRefused(
          id,
          `the bank refused the payout: ${input.answer.responseCode} ${input.answer.responseDescription}`,
        );
      return stepOf(id);
    },
  };
}

/** The payout as first requested: the settlement's net, to the account stored on it. */
async function storedRequest(deps: PayoutActivityDeps, s: Settlement): Promise<BankPayoutRequest> {
  const { settlementStore: store } = deps;
  if (!s.payoutAccount) {
    // Requested before the account was kept on the settlement: keep the one read now, once.
    const account = await deps.settlementAccount(s.merchantIdentifier);
    if (!account) throw new Error(`settlement ${s._id}: the bank account disappeared after the payout was requested`);
    await store.keepPayoutAccount(s._id, deps.payoutAccountSeal.seal(s._id, s.merchantIdentifier, account));
    s = (await store.find(s._id))!;
  }
  const a = s.payoutAccount!;
  return {
    payoutId: s._id,
    merchantIdentifier: s.merchantIdentifier,
    amountPaise: s.netPaise,
    ifsc: a.ifsc,
    accountNumber: deps.payoutAccountSeal.open(s._id, s.merchantIdentifier, a),
  };
}

/** What the bank holds under the payoutId now; PENDING when it cannot say (asked again later). */
async function lookUp(deps: PayoutActivityDeps, payoutId: string): Promise<BankPayoutAnswer | null> {
  try {
    return await deps.payouts.inquirePayout({ payoutId });
  } catch (e) {
    if (!bankRefusal(e)) throw e;
    return pending(`the bank's answer to the inquiry was not usable: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * Sends the stored request. Only the answer to a payout's first request (`first`: this attempt
 * marked it awaiting the bank just before sending) may refuse it: once the bank was asked before
 * (a retry after a lost answer, a re-request after an inquiry found nothing, a continued run), a
 * 4xx may answer the repeat while the bank pays the first, so the bank is asked what it holds and
 * the payout stays PENDING while it cannot say. A conflict (409) is always what the bank holds.
 */
async function send(deps: PayoutActivityDeps, r: BankPayoutRequest, o: { first: boolean }): Promise<BankPayoutAnswer> {
  try {
    return await deps.payouts.requestPayout(r);
  } catch (e) {
    const refusal = bankRefusal(e);
    if (!refusal) throw e;
    const message = e instanceof Error ? e.message : String(e);
    if (refusal.kind === 'ask' || !o.first)
      return (await lookUp(deps, r.payoutId)) ?? pending(`the bank's answer to a repeated request was not usable: ${message}`);
    return { status: 'REFUSED', utr: null, responseCode: `HTTP_${refusal.status}`, responseDescription: message.slice(0, 300) };
  }
}

/**
 * Requests the payout. After marking the payout requested the merchant's hold is
 * read again, and a hold found there (placed while the payout was being marked) moves the
 * settlement back to held, nothing asked of the bank (null). Once the bank was asked, no hold
 * stops it: a retry after a crash asks again for the same payout.
 */
async function requestPayout(
  deps: PayoutActivityDeps,
  input: SettlementWorkflowInput,
): Promise<BankPayoutAnswer | { coolingUntil: Date } | null> {
  const { settlementStore: store, settlementSettings: settings, now } = deps;
  const id = settlementId(input.merchantIdentifier, input.settlementDate);
  let s = await store.find(id);
  if (!s) throw new Error(`settlement ${id} does not exist`);
  if (s.state === 'paid') return { status: 'PAID', utr: s.utr ?? null, responseCode: '00', responseDescription: 'Paid' };
  if (s.state === 'payout_refused')
    return { status: 'REFUSED', utr: null, responseCode: 'NO_ACCOUNT', responseDescription: s.failureReason ?? 'refused' };
  if (s.state === 'open') {
    const account = await deps.settlementAccount(input.merchantIdentifier);
    if (!account) {
      const reason = 'no settlement bank account: set one for the merchant, the net is carried into its next settlement';
      await store.recordRefused(id, reason);
      return { status: 'REFUSED', utr: null, responseCode: 'NO_ACCOUNT', responseDescription: reason };
    }
    // The account read here is the one sealed on the payout: a recent change waits, never paid early.
    if (isCooling(account.coolingUntil, now())) {
      await store.holdForCooling(id, account.coolingUntil);
      return { coolingUntil: account.coolingUntil };
    }
    await store.markPayoutRequested(id, deps.payoutAccountSeal.seal(id, input.merchantIdentifier, account), now());
    s = (await store.find(id))!;
  }
  if (s.state === 'held') return null;
  if (s.state !== 'payout_requested') throw new Error(`settlement ${id} is ${s.state}: no payout to request`);
  let first = false;
  if (!s.awaitingBankSince) {
    if ((await settings.get(input.merchantIdentifier)).held && (await store.returnToHeld(id))) return null;
    first = await store.markAwaitingBank(id, now());
  }
  return send(deps, await storedRequest(deps, s), { first });
}
