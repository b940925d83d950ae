import type { Collection, Db } from 'mongodb';
import { PayerDataCipher, type PayerFieldContext } from '../domain/payer-data';
import type { MaskedSettlementAccount, SettlementAccountInput } from '../domain/settlement-account';
import { maskAccountNumber } from '../domain/settlement-account';

/** `merchants.settlementAccount` (the settlement data contract): the account number sealed at rest. */
interface StoredSettlementAccount {
  ifsc: string;
  accountNumberSealed: string;
  accountLast4: string;
  holderName: string;
  updatedAt: Date;
}

interface MerchantAccountDoc {
  _id: string;
  settlementAccount?: StoredSettlementAccount;
}

const context = (merchantIdentifier: string): PayerFieldContext => ({
  merchantIdentifier,
  field: 'settlementAccount',
  documentId: merchantIdentifier,
});

/**
 * The merchant's settlement bank account, on its merchant document. The account number is sealed
 * with the payer-data cipher (bound to this merchant and field, so a copied value opens nowhere
 * else); the last four digits are kept clear for display.
 */
export class SettlementAccountRepository {
  private readonly merchants: Collection<MerchantAccountDoc>;
  private readonly cipher: PayerDataCipher;

  constructor(db: Db, masterKey: string) {
    this.merchants = db.collection<MerchantAccountDoc>('merchants');
    this.cipher = new PayerDataCipher(masterKey);
  }

  /** Replaces the account; false when the merchant does not exist. */
  async set(merchantIdentifier: string, a: SettlementAccountInput, at: Date): Promise<boolean> {
    const stored: StoredSettlementAccount = {
      ifsc: a.ifsc,
      accountNumberSealed: this.cipher.seal(a.accountNumber, context(merchantIdentifier)),
      accountLast4: a.accountNumber.slice(-4),
      holderName: a.holderName,
      updatedAt: at,
    };
    const r = await this.merchants.updateOne({ _id: merchantIdentifier }, { $set: { settlementAccount: stored } });
    return r.matchedCount === 1;
  }

  /** The account as shown to people: never the whole number. null: no account (or no merchant). */
  async readMasked(merchantIdentifier: string): Promise<MaskedSettlementAccount | null> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { settlementAccount: 1 } });
    const a = doc?.settlementAccount;
    if (!a) return null;
    const length = this.open(merchantIdentifier, a).length;
    return {
      ifsc: a.ifsc,
      accountLast4: a.accountLast4,
      accountNumberMasked: maskAccountNumber('0'.repeat(length - 4) + a.accountLast4),
      holderName: a.holderName,
      updatedAt: a.updatedAt,
    };
  }

  /** The whole account, for the payout only (the settlement engine's injected reader). */
  async read(merchantIdentifier: string): Promise<SettlementAccountInput | null> {
    const doc = await this.merchants.findOne({ _id: merchantIdentifier }, { projection: { settlementAccount: 1 } });
    const a = doc?.settlementAccount;
    return a ? { ifsc: a.ifsc, accountNumber: this.open(merchantIdentifier, a), holderName: a.holderName } : null;
  }

  private open(merchantIdentifier: string, a: StoredSettlementAccount): string {
    return this.cipher.open(a.accountNumberSealed, context(merchantIdentifier));
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
