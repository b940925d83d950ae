import type { BankRedirect } from '../../bank/connector';
import type { Checkout } from '../../domain/checkout';
import type { HostedOrder } from '../../domain/hosted-order';
import type { PaymentInstrument } from '../../domain/instrument';
import type { Merchant } from '../../domain/merchant';
import type { OrderRef } from '../../domain/order-ref';
import type { PaymentLink } from '../../domain/payment-link';
import type { Transaction } from '../../domain/transaction';

/**
 * What the payer audience's operations may ask of the application: each use case bound at start-up
 * (src/main/use-cases/payer.ts) to the store, Temporal and the bank. Types come from src/domain only,
 * so nothing here (nor any route that uses it) reaches the store or Temporal.
 */
export interface PayerUseCases {
  /** A hosted checkout's order by its page token; null when the token, order or merchant is unknown. */
  hostedCheckout(token: string): Promise<HostedOrder<Checkout> | null>;
  /** A payment link's order by its token; null when the token, order or merchant is unknown. */
  hostedPaymentLink(token: string): Promise<HostedOrder<PaymentLink> | null>;
  /** The checkout's payer pays, through its payment workflow (one payer only). */
  payCheckout(checkout: Checkout, payer: PaymentInstrument): Promise<'accepted' | 'notOpen'>;
  /** The checkout's payer cancels (Failure 102), unless it no longer waits for a payer. */
  cancelCheckout(checkout: Checkout): Promise<'cancelled' | 'notOpen'>;
  /** A payment link's payer pays, through its payment workflow (one payer only). */
  payLink(link: PaymentLink, payer: PaymentInstrument): Promise<'accepted' | 'notOpen'>;
  /** Whether the order's payment workflow still waits for its payer (or has not started yet). */
  awaitsPayer(order: OrderRef): Promise<boolean>;
  /** The bank page the payer must visit, once the order's workflow has it (card and net banking over http). */
  bankRedirectOf(order: OrderRef): Promise<BankRedirect | null>;
  /** The same, waiting a moment for the workflow to hear it from the bank. */
  awaitBankRedirect(order: OrderRef): Promise<BankRedirect | null>;
  /** The UPI intent (`upi://pay`) the checkout's payer's app pays the order with. */
  checkoutIntent(merchant: Pick<Merchant, 'name'>, t: Transaction): string;
  /** Records that the checkout's result was offered to its payer: true the first time only. */
  markReturnOffered(checkoutId: string, at: Date): Promise<boolean>;
}
