import { formatIstDateTime } from '../../domain/ist-time';
import { formatRupees } from '../../domain/money';
import { isCooling, type MaskedSettlementAccount, type PendingSettlementAccount } from '../../domain/settlement-account';
import type { Settlement, SettlementLine, SettlementState } from '../../domain/settlement';
import { csrfField, dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { orderPath } from './dashboard-transactions-page';
import { html, type Html } from './html';

/** What each settlement state means to a merchant. */
export const SETTLEMENT_STATE_LABELS: Record<SettlementState, string> = {
  open: 'Being prepared',
  payout_requested: 'Payout requested',
  paid: 'Paid',
  carried_forward: 'Carried forward (negative net)',
  payout_refused: 'Payout refused by the bank: retried next cycle',
  held: 'Held by the operator',
};

/** A settlement's state as the merchant reads it: a cooling wait is not the operator's hold. */
export const settlementStateLabel = (s: Pick<Settlement, 'state' | 'heldReason' | 'coolingUntil'>) =>
  s.state === 'held' && s.heldReason === 'account_cooling' && s.coolingUntil
    ? `Waiting: the bank account changed recently (until ${formatIstDateTime(s.coolingUntil)} IST)`
    : SETTLEMENT_STATE_LABELS[s.state];

export const settlementPath = (settlementId: string) => `/dashboard/settlements/${encodeURIComponent(settlementId)}`;

const money = (paise: number) => formatRupees(paise);

/** The merchant's latest settlements: date, UTR, gross, fees, tax, net and state, each linking to its lines. */
export function settlementsPage(
  v: DashboardViewer,
  settlements: Settlement[],
  more: boolean,
  accountNotice: Html | null = null,
): string {
  const rows = settlements.map(
    (
      s,
    ) => html`<tr><td><a href="${settlementPath(s._id)}">${s.settlementDate}</a></td><td>${s.utr ? html`<code>${s.utr}</code>` : '—'}</td>
  <td>${money(s.grossPaise)}</td><td>${money(s.feePaise)}</td><td>${money(s.taxPaise)}</td><td>${money(s.netPaise)}</td><td class="settlement-state">${settlementStateLabel(s)}</td></tr>`,
  );
  const list: Html = settlements.length
    ? html`${scrollableTable(
        'Settlements',
        html`<table id="settlements"><caption class="muted">Newest first, by settlement (UTR) date</caption>
  <thead><tr><th scope="col">Date</th><th scope="col">UTR</th><th scope="col">Gross</th><th scope="col">Fees</th><th scope="col">GST</th><th scope="col">Net</th><th scope="col">State</th></tr></thead>
  <tbody>${rows}</tbody></table>`,
      )}${more ? html`<p>Only the latest settlements are shown.</p>` : ''}`
    : html`<p id="no-settlements">No settlement yet. Payments captured on a day settle on the next working day.</p>`;
  return dashboardPage(
    'Settlements',
    v,
    html`${accountNotice ? html`<section class="card" aria-label="Bank account change">${accountNotice}</section>` : ''}<section class="card" aria-labelledby="settlements-heading"><h2 id="settlements-heading">Settlements</h2>
  <p>Each settlement pays the day's sales less fees, GST, refunds and chargebacks to your bank account; the UTR is the bank's reference on your statement.</p>${list}</section>`,
    { current: 'settlements' },
  );
}

/** One settlement: its figures and its lines, with a CSV download of the lines. */
export function settlementDetailPage(v: DashboardViewer, s: Settlement, lines: SettlementLine[], more: boolean): string {
  const fact = (k: string, value: string, id?: string) => html`<dt>${k}</dt><dd${id ? html` id="${id}"` : ''}>${value}</dd>`;
  const rows = lines.map(
    (
      l,
    ) => html`<tr><td><a href="${orderPath(l.orderId)}">${l.orderId}</a></td><td><code>${l.txnId}</code></td><td>${l.action}</td>
  <td>${formatIstDateTime(l.txnDate)} IST</td><td>${money(l.amountPaise)}</td><td>${money(l.feePaise)}</td><td>${money(l.taxPaise)}</td><td>${money(l.settlementAmountPaise)}</td></tr>`,
  );
  const table: Html = lines.length
    ? html`${scrollableTable(
        'Settlement lines',
        html`<table id="lines"><thead><tr><th scope="col">orderId</th><th scope="col">txnId</th><th scope="col">Action</th><th scope="col">Captured</th><th scope="col">Amount</th><th scope="col">Fee</th><th scope="col">GST</th><th scope="col">Settled</th></tr></thead>
  <tbody>${rows}</tbody></table>`,
      )}${more ? html`<p>Only the first lines are shown; the CSV download has them all.</p>` : ''}`
    : html`<p id="no-lines">This settlement has no lines of yours.</p>`;
  return dashboardPage(
    `Settlement of ${s.settlementDate}`,
    v,
    html`<style>dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; } dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }</style>
<p><a href="/dashboard/settlements">Back to the settlements</a></p>
<section class="card" aria-labelledby="figures-heading"><h2 id="figures-heading">Figures</h2><dl class="facts">
  ${fact('State', settlementStateLabel(s), 'settlement-state')}${fact('UTR', s.utr ?? '—', 'settlement-utr')}
  ${fact('Gross (sales)', formatRupees(s.grossPaise))}${fact('Refunds', formatRupees(s.refundsPaise))}${fact('Chargebacks', formatRupees(s.chargebacksPaise))}
  ${fact('Fees', formatRupees(s.feePaise))}${fact('GST on fees', formatRupees(s.taxPaise))}${fact('Carried in', formatRupees(s.carriedInPaise))}
  ${fact('Net paid', formatRupees(s.netPaise), 'settlement-net')}${fact('Carried out', formatRupees(s.carriedOutPaise))}
  ${s.accountLast4 ? fact('Paid to', `${s.ifsc ?? ''} account ending ${s.accountLast4}`) : ''}${s.paidAt ? fact('Paid at', `${formatIstDateTime(s.paidAt)} IST`) : ''}
  ${s.failureReason ? fact('Why not paid', s.failureReason) : ''}</dl></section>
<section class="card" aria-labelledby="lines-heading"><h2 id="lines-heading">Lines</h2>
  <p><a id="lines-csv" href="${settlementPath(s._id)}/lines.csv" download>Download the lines (CSV)</a>: the columns of Zaakpay's Settlement API.</p>${table}</section>`,
    { current: 'settlements' },
  );
}

/**
 * The notice every user sees of the account's last change (owners on the bank account page too): when, by whom, the last four digits,
 * and until when payouts to it wait. null: no account, or one stored before changes were kept.
 */
export function accountChangeNotice(account: MaskedSettlementAccount | null, now: Date): Html | null {
  if (!account?.changedBy) return null;
  const cooling = isCooling(account.coolingUntil, now)
    ? html` Payouts to it wait until ${formatIstDateTime(account.coolingUntil)} IST, unless an operator confirms it earlier; if you did not make this change, contact support now.`
    : '';
  return html`<p id="account-change-notice">The bank account was changed on ${formatIstDateTime(account.updatedAt)} IST by ${account.changedBy}: settlements are now paid to the account ending ${account.accountLast4}.${cooling}</p>`;
}

/** The settlement bank account (owners only): the masked account, its last change, and the form that replaces it. */
export function bankAccountPage(
  v: DashboardViewer,
  account: MaskedSettlementAccount | null,
  pending: PendingSettlementAccount | null,
  now: Date,
  o: { notice?: string; error?: string; values?: Record<string, string> } = {},
): string {
  const value = (k: string) => o.values?.[k] ?? '';
  const current = account
    ? html`<dl class="facts" id="current-account"><dt>IFSC</dt><dd>${account.ifsc}</dd><dt>Account</dt><dd id="account-masked">${account.accountNumberMasked}</dd>
  <dt>Holder</dt><dd>${account.holderName}</dd><dt>Changed</dt><dd>${formatIstDateTime(account.updatedAt)} IST</dd></dl>${accountChangeNotice(account, now) ?? ''}`
    : html`<p id="no-account">No bank account yet: settlements wait until one is set.</p>`;
  const proposal = pending
    ? html`<p id="pending-change">Operator ${pending.proposedBy} proposed on ${formatIstDateTime(pending.proposedAt)} IST to pay settlements to the account ending ${pending.accountLast4}; it applies only once a second operator confirms it.</p>`
    : '';
  return dashboardPage(
    'Bank account',
    v,
    html`<style>dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; } dl.facts dd { margin: 0; }</style>
<section class="card" aria-labelledby="current-heading"><h2 id="current-heading">Where settlements are paid</h2>${current}${proposal}</section>
<section class="card" aria-labelledby="change-heading"><h2 id="change-heading">${account ? 'Change the account' : 'Set the account'}</h2>
  <form method="post" action="/dashboard/settlements/account">${csrfField(v.csrf)}
    <label for="ifsc">IFSC (e.g. HDFC0001234)</label><input id="ifsc" name="ifsc" required autocomplete="off" value="${value('ifsc')}">
    <label for="accountNumber">Account number (9 to 18 digits)</label><input id="accountNumber" name="accountNumber" required inputmode="numeric" autocomplete="off">
    <label for="holderName">Account holder's name</label><input id="holderName" name="holderName" required value="${value('holderName')}">
    <label for="password">Your dashboard password (to confirm it is you)</label><input id="password" name="password" type="password" required autocomplete="current-password">
    <button type="submit" id="save-account">Save the bank account</button>
  </form><p class="muted">The account number is stored encrypted; only its last four digits are shown. ${
    account
      ? 'Every owner sees the change here, and payouts to a changed account wait a while (see Settlements in the docs).'
      : ''
  }</p></section>`,
    { current: 'bank-account', ...(o.notice ? { notice: o.notice } : {}), ...(o.error ? { error: o.error } : {}) },
  );
}

/** A sale's settlement as the order page shows it: a fact, and once paid an event of its timeline. */
export function orderSettlementState(
  paid: boolean,
  sale: { line: SettlementLine; settlement: Settlement | null } | null,
): { text: string; event?: { at: Date; text: string } } | null {
  if (!paid) return null;
  const s = sale?.settlement;
  if (!sale || !s) return { text: 'Pending settlement' };
  if (s.state === 'paid' && s.utr) {
    const text = `Settled on ${s.settlementDate} with UTR ${s.utr}`;
    return {
      text,
      ...(s.paidAt
        ? {
            event: {
              at: s.paidAt,
              text: `${text}: ${formatRupees(sale.line.settlementAmountPaise)} of it paid to this merchant`,
            },
          }
        : {}),
    };
  }
  return { text: `Pending settlement (settlement of ${s.settlementDate}: ${SETTLEMENT_STATE_LABELS[s.state].toLowerCase()})` };
}
