import type { Merchant } from './merchant';
import type { Transaction } from './transaction';

/** The order behind a payer's page (a hosted checkout, a payment link), with the transaction and merchant it shows. */
export interface HostedOrder<Page> {
  page: Page;
  t: Transaction;
  merchant: Merchant;
}
