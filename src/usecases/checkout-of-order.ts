import type { Config } from '../config';
import { checkoutToken, legacyCheckoutToken } from '../domain/checkout';
import type { Checkout } from '../domain/checkout';
import type { CheckoutRepository } from '../store/checkout-repository';
import type { OrderRef } from '../store/transaction-repository';

/**
 * The hosted checkout of an order, found by its token. A checkout made before tokens were keyed by
 * their own derived key carries the legacy token (MASTER_KEY itself as the HMAC key); it is still
 * found while it may be in use: its CHECKOUT_EXPIRY_SECONDS of life and as long again for the
 * bank's return of a payment started at its end. Older ones are no longer looked up.
 */
export async function findCheckoutOfOrder(
  deps: {
    checkouts: CheckoutRepository;
    config: { secrets: Pick<Config['secrets'], 'masterKey'>; payments: Pick<Config['payments'], 'checkoutExpirySeconds'> };
    now: () => Date;
  },
  order: OrderRef,
): Promise<Checkout | null> {
  const current = await deps.checkouts.findByToken(
    checkoutToken(deps.config.secrets.masterKey, order.merchantIdentifier, order.orderId),
  );
  if (current) return current;
  const legacy = await deps.checkouts.findByToken(
    legacyCheckoutToken(deps.config.secrets.masterKey, order.merchantIdentifier, order.orderId),
  );
  const usableUntil = legacy && legacy.createdAt.getTime() + 2 * deps.config.payments.checkoutExpirySeconds * 1000;
  return legacy && deps.now().getTime() < usableUntil! ? legacy : null;
}
