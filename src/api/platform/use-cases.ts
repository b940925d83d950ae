import type { BankCallback, BankCallbackResult } from '../../bank/protocol';
import type { Checkout } from '../../domain/checkout';
import type { OrderRef } from '../../domain/order-ref';
import type { Transaction } from '../../domain/transaction';

/** Whether a dependency answered its probe. */
export type Probe = 'ok' | 'unavailable';

/**
 * What the platform audience's operations may ask of the application: each use case bound at start-up
 * (src/main/use-cases/platform.ts) to the store, Temporal and the bank. Types come from src/domain only,
 * so nothing here (nor any route that uses it) reaches the store or Temporal.
 */
export interface PlatformUseCases {
  /** Whether the store and Temporal answer (GET /ready). */
  readiness(): Promise<{ store: Probe; temporal: Probe }>;
  /** A bank's callback, its signature already verified: offered to the order's workflow, or recorded. */
  handleBankCallback(callback: BankCallback): Promise<BankCallbackResult>;
  /** The order's transaction, by its key. */
  findTransaction(order: OrderRef): Promise<Transaction | null>;
  /** The hosted checkout of an order, if it has one. */
  checkoutOfOrder(order: OrderRef): Promise<Checkout | null>;
}
