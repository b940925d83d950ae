import type { BankRedirect } from '../bank/connector';
import type { Merchant } from '../domain/merchant';
import type { OrderRef } from '../domain/order-ref';

/**
 * What every audience's requests may ask of the application, whichever audience serves them:
 * finding the merchant a request names and the keys in force (the authentication schemes), the
 * bank's page after a hosted page's payment, the test server's clock. Bound at start-up
 * (src/main/use-cases/shared.ts).
 */
export interface SharedUseCases {
  /** The merchant, as of this request (a key revoked on any replica is refused already); null when there is none. */
  findMerchant(merchantIdentifier: string): Promise<Merchant | null>;
  /** The merchant read afresh from the store, for a key rotated since the request's read. */
  findMerchantAfresh(merchantIdentifier: string): Promise<Merchant | null>;
  /** The merchant one of whose unrevoked API keys has this hash (its use noted at `usedAt`); null when none has. */
  findMerchantByApiKeyHash(apiKeyHash: string, usedAt: Date): Promise<Merchant | null>;
  /** The bank page the payer must visit, once the order's workflow has it (waits a moment for it); null when there is none. */
  awaitBankRedirect(order: OrderRef): Promise<BankRedirect | null>;
  /** Time-skipping mode only: re-reads the test server's time, so `now` sees the latest skip whichever process made it. */
  followTestServerClock?: () => Promise<void>;
}
