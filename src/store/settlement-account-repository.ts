import type { Collection, Db } from 'mongodb';
import { PayerDataCipher, type PayerFieldContext } from '../domain/payer-data';
import type { MaskedSettlementAccount, PendingSettlementAccount, SettlementAccountInput } from '../domain/settlement-account';
import { maskAccountNumber } from '../domain/settlement-account';
import type { AuditActor } from '../domain/audit';

/** `merchants.settlementAccount` (the settlement data contract): the account number sealed at rest. */
interface StoredSettlementAccount {
  ifsc: string;
  accountNumberSealed: string;
  accountLast4: string;
  holderName: string;
  updatedAt: Date;
  changedBy?: string;
  /** Who proposed the change (an operator, or the owner who made it): never the one to end its cooling. */
  proposedBy?: AuditActor | null;
  coolingUntil?: Date | null;
}

/** `merchants.settlementAccountProposal`: an operator's change waiting for a second operator. */
interface StoredProposal {
  ifsc: string;
  accountNumberSealed: string;
  accountLast4: string;
  holderName: string;
  proposedBy: string;
  proposedAt: Date;
}

interface MerchantAccountDoc {
  _id: string;
  webhookUrl?: string | null;
  settlementWebhook?: boolean;
  settlementAccount?: StoredSettlementAccount;
  settlementAccountProposal?: StoredProposal;
}

const context = (merchantIdentifier: string, field = 'settlementAccount'): PayerFieldContext => ({
  merchantIdentifier,
  field,
  documentId: merchantIdentifier,
});
const PROPOSAL = 'settlementAccountProposal';

/** The account as stored: who changed it and until when payouts to it wait. */
export interface AccountChange {
  at: Date;
  by: string;
  proposedBy?: AuditActor | null;
  coolingUntil: Date | null;
}

/** The account opened for the payout, with until when payouts to it wait. */
export type PayoutAccount = SettlementAccountInput & { coolingUntil: Date | null };

/**
 * The merchant's settlement bank account, on its merchant document, and an operator's proposed
 * change to it. Account numbers are sealed with the payer-data cipher (bound to this merchant and
 * field, so a copied value opens nowhere else); the last four digits are kept clear for display.
 */
export class SettlementAccountRepository {
  private readonly merchants: Collection<MerchantAccountDoc>;
  private readonly cipher: PayerDataCipher;

  constructor(db: Db, masterKey: string) {
    this.merchants = db.collection<MerchantAccountDoc>('merchants');
    this.cipher = new PayerDataCipher(masterKey);
  }

  private stored(merchantIdentifier: string, a: SettlementAccountInput, c: AccountChange): StoredSettlementAccount {
    return {
      ifsc: a.ifsc,
      accountNumberSealed: this.cipher.seal(a.accountNumber, context(merchantIdentifier)),
      accountLast4: a.accountNumber.slice(-4),
      holderName: a.holderName,
      updatedAt: c.at,
      changedBy: c.by,
      proposedBy: c.proposedBy ?? null,
      coolingUntil: c.coolingUntil,
    };
  }

  /** Replaces the account, dropping any pending proposal (it was made against the old one); false when the merchant does not exist. */
  async set(merchantIdentifier: string, a: SettlementAccountInput, c: AccountChange): Promise<boolean> {
    const r = await this.merchants.updateOne(
      { _id: merchantIdentifier },
      { $set: { settlementAccount: this.stored(merchantIdentifier, a, c) }, $unset: { [PROPOSAL]: '' } },
    );
    return r.matchedCount === 1;
  }

  /** Stores an operator's proposed change, replacing any earlier one; false when the merchant does not exist. */
  async propose(merchantIdentifier: string, a: SettlementAccountInput, by: string, at: Date): Promise<boolean> {
    const proposal: StoredProposal = {
      ifsc: a.ifsc,
      accountNumberSealed: this.cipher.seal(a.accountNumber, context(merchantIdentifier, PROPOSAL)),
      accountLast4: a.accountNumber.slice(-4),
      holderName: a.holderName,
      proposedBy: by,
      proposedAt: at,
    };
    const r = await this.merchants.updateOne({ _id: merchantIdentifier }, { $set: { settlementAccountProposal: proposal } });
    return r.matchedCount === 1;
  }

  /** The proposed change, opened (null: none pending). */
  async proposal(
    merchantIdentifier: string,
  ): Promise<{ account: SettlementAccountInput; proposedBy: string; proposedAt: Date } | null> {
    const p = (await this.doc(merchantIdentifier))?.settlementAccountProposal;
    if (!p) return null;
    const accountNumber = this.cipher.open(p.accountNumberSealed, context(merchantIdentifier, PROPOSAL));
    return {
      account: { ifsc: p.ifsc, accountNumber, holderName: p.holderName },
      proposedBy: p.proposedBy,
      proposedAt: p.proposedAt,
    };
  }

  /**
   * Makes the proposal read as `proposedAt` the account, in one update: false when it was replaced
   * or applied meanwhile (a second confirmation applies nothing twice).
   */
  async applyProposal(
    merchantIdentifier: string,
    a: SettlementAccountInput,
    proposedAt: Date,
    c: AccountChange,
  ): Promise<boolean> {
    const r = await this.merchants.updateOne(
      {
        _id: merchantIdentifier,
        'settlementAccountProposal.proposedAt': proposedAt,
        'settlementAccountProposal.accountLast4': a.accountNumber.slice(-4),
      },
      { $set: { settlementAccount: this.stored(merchantIdentifier, a, c) }, $unset: { settlementAccountProposal: '' } },
    );
    return r.modifiedCount === 1;
  }

  /** Ends the cooling of the account ending `accountLast4` if it still cools at `now`; false otherwise. */
  async endCooling(merchantIdentifier: string, accountLast4: string, now: Date): Promise<boolean> {
    const r = await this.merchants.updateOne(
      { _id: merchantIdentifier, 'settlementAccount.accountLast4': accountLast4, 'settlementAccount.coolingUntil': { $gt: now } },
      { $set: { 'settlementAccount.coolingUntil': null } },
    );
    return r.modifiedCount === 1;
  }

  /** Who proposed the stored account's change (null: not kept, stored before it was), and the legacy `changedBy` text. */
  async proposerOf(merchantIdentifier: string): Promise<{ proposedBy: AuditActor | null; changedBy: string | null }> {
    const a = (await this.doc(merchantIdentifier))?.settlementAccount;
    return { proposedBy: a?.proposedBy ?? null, changedBy: a?.changedBy ?? null };
  }

  /** The account as shown to people: never the whole number. null: no account (or no merchant). */
  async readMasked(merchantIdentifier: string): Promise<MaskedSettlementAccount | null> {
    const a = (await this.doc(merchantIdentifier))?.settlementAccount;
    if (!a) return null;
    return {
      ...this.masked(a.accountNumberSealed, a.accountLast4, merchantIdentifier),
      ifsc: a.ifsc,
      holderName: a.holderName,
      updatedAt: a.updatedAt,
      changedBy: a.changedBy ?? null,
      coolingUntil: a.coolingUntil ?? null,
    };
  }

  /** The proposed change as shown to people (null: none pending). */
  async readPendingMasked(merchantIdentifier: string): Promise<PendingSettlementAccount | null> {
    const p = (await this.doc(merchantIdentifier))?.settlementAccountProposal;
    if (!p) return null;
    return {
      ...this.masked(p.accountNumberSealed, p.accountLast4, merchantIdentifier, PROPOSAL),
      ifsc: p.ifsc,
      holderName: p.holderName,
      proposedBy: p.proposedBy,
      proposedAt: p.proposedAt,
    };
  }

  /** The whole account, for the payout only (the settlement engine's injected reader). */
  async read(merchantIdentifier: string): Promise<PayoutAccount | null> {
    const a = (await this.doc(merchantIdentifier))?.settlementAccount;
    if (!a) return null;
    const accountNumber = this.cipher.open(a.accountNumberSealed, context(merchantIdentifier));
    return { ifsc: a.ifsc, accountNumber, holderName: a.holderName, coolingUntil: a.coolingUntil ?? null };
  }

  /** Whether the merchant is told of a change by webhook: a webhook URL and the settlement webhooks opted in. */
  async notifiesByWebhook(merchantIdentifier: string): Promise<boolean> {
    const doc = await this.merchants.findOne(
      { _id: merchantIdentifier },
      { projection: { webhookUrl: 1, settlementWebhook: 1 } },
    );
    return !!doc?.webhookUrl && doc.settlementWebhook === true;
  }

  private doc(merchantIdentifier: string) {
    return this.merchants.findOne(
      { _id: merchantIdentifier },
      { projection: { settlementAccount: 1, settlementAccountProposal: 1 } },
    );
  }

  private masked(sealed: string, last4: string, merchantIdentifier: string, field?: string) {
    const length = this.cipher.open(sealed, context(merchantIdentifier, field)).length;
    return { accountLast4: last4, accountNumberMasked: maskAccountNumber('0'.repeat(length - 4) + last4) };
  }
}

/** The reader the settlement engine takes in its activities' deps: `(merchantIdentifier) => account | null`. */
export function readSettlementAccount(repository: SettlementAccountRepository) {
  return (merchantIdentifier: string) => repository.read(merchantIdentifier);
}

/** The account a payout was first requested to, kept on the settlement: the number sealed. */
export interface SealedPayoutAccount {
  ifsc: string;
  accountNumberSealed: string;
  accountLast4: string;
}

/**
 * Seals the account a payout is requested to, bound to its settlement (field `payoutAccount`,
 * document the settlement's id), so every later request of that payoutId sends the same account.
 */
export class PayoutAccountSeal {
  private readonly cipher: PayerDataCipher;

  constructor(masterKey: string) {
    this.cipher = new PayerDataCipher(masterKey);
  }

  seal(settlementId: string, merchantIdentifier: string, a: { ifsc: string; accountNumber: string }): SealedPayoutAccount {
    return {
      ifsc: a.ifsc,
      accountNumberSealed: this.cipher.seal(a.accountNumber, payoutContext(settlementId, merchantIdentifier)),
      accountLast4: a.accountNumber.slice(-4),
    };
  }

  open(settlementId: string, merchantIdentifier: string, a: SealedPayoutAccount): string {
    return this.cipher.open(a.accountNumberSealed, payoutContext(settlementId, merchantIdentifier));
  }
}

const payoutContext = (settlementId: string, merchantIdentifier: string): PayerFieldContext => ({
  merchantIdentifier,
  field: 'payoutAccount',
  documentId: settlementId,
});
