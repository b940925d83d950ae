/**
 * The `account.changed` webhook: sent to merchants opted in to settlement webhooks when their
 * settlement bank account changes, so a change nobody at the merchant made is noticed outside the
 * dashboard too. It travels the payment webhooks' machinery: its JSON is the `txnData` text,
 * checksummed and signed the same way, in the merchant's body format. Only the last four digits.
 */
export const ACCOUNT_CHANGED = 'account.changed';

export interface AccountChangedEvent {
  event: typeof ACCOUNT_CHANGED;
  merchantIdentifier: string;
  /** ISO 8601: when the change was stored. */
  changedAt: string;
  /** `owner <email>` or `operators <proposer> + <confirmer>`. */
  changedBy: string;
  accountLast4: string;
  /** The replaced account's last four digits; empty for a first account. */
  previousAccountLast4: string;
  /** ISO 8601: payouts to the new account wait until then; empty when they do not. */
  coolingUntil: string;
}

/** One delivery per change, named by the merchant and the change's time: a repeated start sends nothing twice. */
export const accountChangedDeliveryId = (e: Pick<AccountChangedEvent, 'merchantIdentifier' | 'changedAt'>) =>
  `account-changed:${e.merchantIdentifier}:${e.changedAt}`;
