import type { Client } from '@temporalio/client';
import type { BankRedirect } from '../bank/connector';
import { CHECKOUT_TOKEN_PATTERN, type Checkout } from '../domain/checkout';
import type { HostedOrder } from '../domain/hosted-order';
import type { PaymentLink } from '../domain/payment-link';
import type { CheckoutRepository } from '../store/checkout-repository';
import type { MerchantRepository } from '../store/merchant-repository';
import type { PaymentLinkRepository } from '../store/payment-link-repository';
import type { OrderRef, TransactionRepository } from '../store/transaction-repository';
import { paymentWorkflowClient } from '../temporal/payment-client';

/*
 * The order behind a payer's page (a hosted checkout, a payment link): read by the page's token,
 * the capability the payer's browser holds, with the transaction and merchant it shows, and where
 * its payment workflow sends the payer's browser (the bank's page, card and net banking over http).
 */

export type { HostedOrder };

interface OrderDeps {
  transactions: TransactionRepository;
  merchants: MerchantRepository;
}

const PAYMENT_LINK_TOKEN = /^[A-Za-z0-9_-]{24}$/;

/** A hosted checkout's order by its page token; null when the token, order or merchant is unknown. */
export async function hostedCheckout(
  deps: OrderDeps & { checkouts: CheckoutRepository },
  token: string,
): Promise<HostedOrder<Checkout> | null> {
  return withOrder(deps, CHECKOUT_TOKEN_PATTERN.test(token) ? await deps.checkouts.findByToken(token) : null);
}

/** A payment link's order by its token; null when the token, order or merchant is unknown. */
export async function hostedPaymentLink(
  deps: OrderDeps & { paymentLinks: PaymentLinkRepository },
  token: string,
): Promise<HostedOrder<PaymentLink> | null> {
  return withOrder(deps, PAYMENT_LINK_TOKEN.test(token) ? await deps.paymentLinks.findByToken(token) : null);
}

async function withOrder<Page extends OrderRef>(deps: OrderDeps, page: Page | null): Promise<HostedOrder<Page> | null> {
  if (!page) return null;
  const [t, merchant] = await Promise.all([
    deps.transactions.findByOrder(page),
    deps.merchants.findById(page.merchantIdentifier),
  ]);
  return t && merchant ? { page, t, merchant } : null;
}

/** The bank page the payer must visit, once the order's workflow has it (card and net banking over http). */
export async function bankRedirectOf(deps: { temporal: Client }, order: OrderRef): Promise<BankRedirect | null> {
  try {
    return await paymentWorkflowClient(deps.temporal).bankRedirect(order);
  } catch (e) {
    if ((e as Error).name === 'WorkflowNotFoundError' || (e as Error).name === 'QueryNotRegisteredError') return null;
    throw e;
  }
}

/**
 * Waits a moment (at most 5 s) for the workflow to hear the bank's REDIRECT: it asks the bank right
 * after taking the payer, and its update answers as soon as it knows. A workflow that finished, a
 * worker of a release without the update, or a bank slower than that: what the query says now.
 */
export async function awaitBankRedirect(deps: { temporal: Client }, order: OrderRef): Promise<BankRedirect | null> {
  try {
    return await paymentWorkflowClient(deps.temporal).awaitBankRedirect(order, 5_000);
  } catch {
    return bankRedirectOf(deps, order);
  }
}
