import { mayDo } from '../../domain/dashboard-roles';
import { formatIstDateTime } from '../../domain/ist-time';
import { formatRupees } from '../../domain/money';
import type { Transaction } from '../../domain/transaction';
import type { PaymentLink } from '../../domain/payment-link';
import { csrfField, dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { orderPath } from './dashboard-transactions-page';
import { esc } from './layout';

/** The link as the merchant reads it: open (until when), paid, or not paid and why. */
export function linkStatus(t: Transaction | undefined, now: Date): string {
  if (!t) return 'Unknown';
  if (t.successAt) return t.status === 'Success' ? 'Paid' : `Paid (${t.status})`;
  if (t.status === 'Pending')
    return t.payerDeadline && t.payerDeadline <= now ? 'Expired' : `Open until ${formatIstDateTime(t.payerDeadline ?? now)} IST`;
  return `Not paid: ${t.responseDescription}`;
}

export const LINK_VALIDITY_DAYS = [1, 3, 7, 30] as const;

export interface LinkRow {
  link: PaymentLink;
  url: string;
  order: Transaction | undefined;
}

/** The payment links of a period with their status, and (for whoever may) a form creating one. */
export function linksPage(
  v: DashboardViewer,
  o: { from: string; to: string; rows: LinkRow[]; more: boolean; now: Date; batchId: string; created?: string; error?: string },
): string {
  const rows = o.rows
    .map(
      ({ link, url, order }) => `<tr><td><a href="${esc(orderPath(link.orderId))}">${esc(link.orderId)}</a></td>
  <td>${order ? esc(formatRupees(order.amountPaise)) : ''}</td><td>${esc(formatIstDateTime(link.createdAt))} IST</td>
  <td class="link-status">${esc(linkStatus(order, o.now))}</td><td><a href="${esc(url)}">open the link</a></td></tr>`,
    )
    .join('');
  const list = o.rows.length
    ? scrollableTable(
        'Payment links',
        `<table id="links"><caption class="muted">Created ${esc(o.from)} to ${esc(o.to)} (IST), oldest first</caption>
  <thead><tr><th scope="col">orderId</th><th scope="col">Amount</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Page</th></tr></thead>
  <tbody>${rows}</tbody></table>`,
      ) + (o.more ? '<p>Only the first links of the period are shown; choose a shorter period.</p>' : '')
    : '<p id="no-links">No payment link was created in this period.</p>';
  const created = o.created
    ? `<section class="card" aria-labelledby="created-heading"><h2 id="created-heading">Link created</h2>
  <p>Send this address to your customer: <a id="created-link" href="${esc(o.created)}">${esc(o.created)}</a></p></section>`
    : '';
  const form = mayDo(v.role, 'payments')
    ? `<section class="card" aria-labelledby="create-heading"><h2 id="create-heading">Create a payment link</h2>
  <form method="post" action="/dashboard/links">${csrfField(v.csrf)}<input type="hidden" name="batchId" value="${esc(o.batchId)}">
    <label for="link-order">orderId</label><input id="link-order" name="orderId" required maxlength="64">
    <label for="link-amount">Amount in rupees (at least 9)</label><input id="link-amount" name="amount" inputmode="decimal" required>
    <label for="link-product">What is paid for</label><input id="link-product" name="productDescription" required maxlength="100">
    <label for="link-email">Customer's email (optional)</label><input id="link-email" name="customerEmail" type="email">
    <label for="link-days">Valid for</label><select id="link-days" name="validDays">${LINK_VALIDITY_DAYS.map(
      (d) =>
        `<option value="${d}"${d === 7 ? ' selected' : ''}>${d} day${d === 1 ? '' : 's'} (to the end of that day, IST)</option>`,
    ).join('')}</select>
    <button type="submit" id="create-link">Create the link</button>
  </form></section>`
    : '';
  return dashboardPage(
    'Payment links',
    v,
    `${created}${form}<section class="card" aria-labelledby="links-heading"><h2 id="links-heading">Links</h2>
  <form method="get" action="/dashboard/links" aria-label="Period"><label for="links-from">Created from (IST day)</label><input id="links-from" name="from" type="date" value="${esc(o.from)}">
  <label for="links-to">to (included)</label><input id="links-to" name="to" type="date" value="${esc(o.to)}"><button type="submit" class="inline">Show</button></form>
  ${list}</section>`,
    { current: 'links', ...(o.error ? { error: o.error } : {}) },
  );
}
