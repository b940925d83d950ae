import type { Config } from '../config';
import { checkoutToken, type CheckoutRequest } from '../domain/checkout';
import type { CheckoutEntry } from '../domain/checkout-return';
import { newTxnId } from '../domain/identifiers';
import { renderQrPngOffLoop } from '../qr-render-pool';
import { extraProductDescriptions, type Transaction } from '../domain/transaction';
import { paymentIntentUrls, upiIntentUrl } from '../domain/upi-intent';
import type { StartCheckoutResult } from '../domain/checkout';
import type { CheckoutRepository } from '../store/checkout-repository';
import type { Merchant } from '../domain/merchant';
import { findCheckoutOfOrder } from './checkout-of-order';
import { ensurePaymentWorkflow, type StartPaymentDeps } from './start-payment';

export interface CheckoutDeps extends StartPaymentDeps {
  checkouts: CheckoutRepository;
  config: {
    secrets: Pick<Config['secrets'], 'masterKey'>;
    payments: Pick<Config['payments'], 'checkoutExpirySeconds'>;
    upi: Pick<Config['upi'], 'payeeVpa' | 'merchantCategoryCode'>;
  };
}

export type { StartCheckoutResult };

/**
 * A hosted checkout's order: a Pending transaction whose payer brings the instrument on the
 * checkout page (or in a UPI app) until CHECKOUT_EXPIRY_SECONDS have passed, paid through the same
 * payment workflow and update as QR orders and payment links. The orderId is claimed in the
 * merchant's one namespace first, so a used one is refused and the order holding it untouched.
 * The same request again, while the order waits for its payer, answers the same checkout (a
 * browser posting the merchant's form twice); the checkout document is written after the order and
 * found again by its token, so a retry after a crash in between completes it.
 */
export async function startCheckout(
  deps: CheckoutDeps,
  merchant: Merchant,
  entry: CheckoutEntry,
  r: CheckoutRequest & { returnUrl: string },
  ipAddress: string | null,
): Promise<StartCheckoutResult> {
  const now = deps.now();
  const { transaction, created } = await deps.transactions.createPending({
    txnId: newTxnId(now),
    merchantIdentifier: merchant.merchantIdentifier,
    orderId: r.orderId,
    amountPaise: r.amountPaise,
    productDescription: r.productDescription,
    ...extraProductDescriptions(r),
    buyerName: r.buyerName,
    buyerEmail: r.buyerEmail,
    ipAddress,
    instrument: { kind: 'CHECKOUT' },
    channel: 'checkout',
    payerDeadline: new Date(now.getTime() + deps.config.payments.checkoutExpirySeconds * 1000),
    createdAt: now,
  });
  if (!transaction) return { kind: 'orderIdUsed' };
  const repeat = !created;
  if (repeat && !waitingCheckoutOf(transaction, r)) return { kind: 'orderIdUsed' };
  // A repeat of an order whose checkout was made under the legacy token lands on that checkout.
  const made = repeat
    ? await findCheckoutOfOrder(deps, { merchantIdentifier: merchant.merchantIdentifier, orderId: r.orderId })
    : null;
  const checkout =
    made ??
    (await deps.checkouts.insertOrFind({
      _id: checkoutToken(deps.config.secrets.masterKey, merchant.merchantIdentifier, r.orderId),
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: r.orderId,
      entry,
      returnUrl: r.returnUrl,
      paymentMode: r.paymentMode,
      bankid: r.bankid,
      createdAt: now,
    }));
  if (repeat && (checkout.entry !== entry || checkout.returnUrl !== r.returnUrl)) return { kind: 'orderIdUsed' };
  await ensurePaymentWorkflow(deps, transaction);
  return { kind: 'open', checkout, transaction };
}

/** The stored order is this request's checkout, still waiting for its payer. */
function waitingCheckoutOf(t: Transaction, r: CheckoutRequest): boolean {
  return (
    t.instrument.kind === 'CHECKOUT' &&
    t.status === 'Pending' &&
    t.amountPaise === r.amountPaise &&
    t.productDescription === r.productDescription
  );
}

/** The UPI intent (`upi://pay`) a payer's app pays the order with. */
export function checkoutIntent(
  config: { upi: Pick<Config['upi'], 'payeeVpa' | 'merchantCategoryCode'> },
  merchant: Pick<Merchant, 'name'>,
  t: Transaction,
): string {
  return upiIntentUrl({
    payeeVpa: config.upi.payeeVpa,
    payeeName: merchant.name,
    amountPaise: t.amountPaise,
    txnId: t.txnId,
    note: t.productDescription || `Order ${t.orderId}`,
    merchantCategoryCode: config.upi.merchantCategoryCode,
  });
}

const QR_SIDE = 300;

/** `bankPostData` of the JSON answer (208): the app links of a UPI intent, or the QR of a upiqr checkout. */
export async function checkoutBankPostData(intent: string, t: Transaction, qr: boolean): Promise<Record<string, string>> {
  if (qr)
    return {
      link: (await renderQrPngOffLoop(t.merchantIdentifier, intent, QR_SIDE, QR_SIDE)).toString('base64'),
      txnid: t.txnId,
    };
  return { ...paymentIntentUrls(intent), txnid: t.txnId };
}
