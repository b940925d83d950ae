import { mayDo } from '../../domain/dashboard-roles';
import { formatIstDateTime } from '../../domain/ist-time';
import { formatRupees } from '../../domain/money';
import type { Transaction } from '../../domain/transaction';
import type { PaymentLink } from '../../domain/payment-link';
import { csrfField, dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { orderPath } from './dashboard-transactions-page';
import { html } from './html';

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
  const rows = o.rows.map(
    ({ link, url, order }) => html`<tr><td><a href="${orderPath(link.orderId)}">${link.orderId}</a></td>
  <td>${order ? formatRupees(order.amountPaise) : ''}</td><td>${formatIstDateTime(link.createdAt)} IST</td>
  <td class="link-status">${linkStatus(order, o.now)}</td><td><a href="${url}">open the link</a></td></tr>`,
  );
  const list = o.rows.length
    ? html`${scrollableTable(
        'Payment links',
        html`<table id="links"><caption class="muted">Created ${o.from} to ${o.to} (IST), oldest first</caption>
  <thead><tr><th scope="col">orderId</th><th scope="col">Amount</th><th scope="col">Created</th><th scope="col">Status</th><th scope="col">Page</th></tr></thead>
  <tbody>${rows}</tbody></table>`,
      )}${o.more ? html`<p>Only the first links of the period are shown; choose a shorter period.</p>` : ''}`
    : html`<p id="no-links">No payment link was created in this period.</p>`;
  const created = o.created
    ? html`<section class="card" aria-labelledby="created-heading"><h2 id="created-heading">Link created</h2>
  <p>Send this address to your customer: <a id="created-link" href="${o.created}">${o.created}</a></p></section>`
    : '';
  const form = mayDo(v.role, 'payments')
    ? html`<section class="card" aria-labelledby="create-heading"><h2 id="create-heading">Create a payment link</h2>
  <form method="post" action="/dashboard/links">${csrfField(v.csrf)}<input type="hidden" name="batchId" value="${o.batchId}">
    <label for="link-order">orderId</label><input id="link-order" name="orderId" required maxlength="64">
    <label for="link-amount">Amount in rupees (at least 9)</label><input id="link-amount" name="amount" inputmode="decimal" required>
    <label for="link-product">What is paid for</label><input id="link-product" name="productDescription" required maxlength="100">
    <label for="link-email">Customer's email (optional)</label><input id="link-email" name="customerEmail" type="email">
    <label for="link-days">Valid for</label><select id="link-days" name="validDays">${LINK_VALIDITY_DAYS.map(
      (d) =>
        html`<option value="${d}"${d === 7 ? ' selected' : ''}>${d} day${d === 1 ? '' : 's'} (to the end of that day, IST)</option>`,
    )}</select>
    <button type="submit" id="create-link">Create the link</button>
  </form></section>`
    : '';
  return dashboardPage(
    'Payment links',
    v,
    html`${created}${form}<section class="card" aria-labelledby="links-heading"><h2 id="links-heading">Links</h2>
  <form method="get" action="/dashboard/links" aria-label="Period"><label for="links-from">Created from (IST day)</label><input id="links-from" name="from" type="date" value="${o.from}">
  <label for="links-to">to (included)</label><input id="links-to" name="to" type="date" value="${o.to}"><button type="submit" class="inline">Show</button></form>
  ${list}</section>`,
    { current: 'links', ...(o.error ? { error: o.error } : {}) },
  );
}
