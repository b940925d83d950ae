import { formatIstDateTime, istDate } from '../../domain/ist-time';
import type { Mandate } from '../../domain/mandate';
import { formatRupees } from '../../domain/money';
import type { Transaction } from '../../domain/transaction';
import { dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { orderPath } from './dashboard-transactions-page';
import { html } from './html';

const mandateOf = (t: Transaction) => (t.instrument.kind === 'UPI_MANDATE' ? t.instrument.mandateOrderId : '');

/** UPI AutoPay mandates created in a period with their state, and the debits of that period under any mandate. */
export function mandatesPage(
  v: DashboardViewer,
  o: { from: string; to: string; mandates: Mandate[]; debits: Transaction[]; more: boolean; error?: string },
): string {
  const debitsOf = new Map<string, number>();
  for (const t of o.debits) debitsOf.set(mandateOf(t), (debitsOf.get(mandateOf(t)) ?? 0) + 1);
  const mandateRows = o.mandates.map(
    (m) => html`<tr><td>${m.orderId}</td><td class="mandate-state">${m.state}</td><td>${formatRupees(m.maxAmountPaise)}</td>
  <td>${m.frequency}</td><td>${istDate(m.validFrom)} to ${istDate(new Date(m.validUntil.getTime() - 1))}</td><td>${formatIstDateTime(m.createdAt)} IST</td><td>${debitsOf.get(m.orderId) ?? 0}</td></tr>`,
  );
  const debitRows = o.debits.map(
    (
      t,
    ) => html`<tr><td><a href="${orderPath(t.orderId)}">${t.orderId}</a></td><td>${mandateOf(t)}</td><td>${formatRupees(t.amountPaise)}</td>
  <td>${t.status}</td><td>${formatIstDateTime(t.executeAt ?? t.createdAt)} IST</td></tr>`,
  );
  const period = `${o.from} to ${o.to} (IST)`;
  return dashboardPage(
    'Mandates',
    v,
    html`<section class="card" aria-labelledby="period-heading"><h2 id="period-heading">Period</h2>
  <form method="get" action="/dashboard/mandates" aria-label="Period"><label for="m-from">From (IST day)</label><input id="m-from" name="from" type="date" value="${o.from}">
  <label for="m-to">to (included)</label><input id="m-to" name="to" type="date" value="${o.to}"><button type="submit" class="inline">Show</button></form></section>
<section class="card" aria-labelledby="mandates-heading"><h2 id="mandates-heading">Mandates created</h2>${
      o.mandates.length
        ? scrollableTable(
            'Mandates',
            html`<table id="mandates"><caption class="muted">Created ${period}; debits counted in the same period</caption>
  <thead><tr><th scope="col">orderId</th><th scope="col">State</th><th scope="col">Up to</th><th scope="col">Frequency</th><th scope="col">Valid</th><th scope="col">Created</th><th scope="col">Debits</th></tr></thead>
  <tbody>${mandateRows}</tbody></table>`,
          )
        : html`<p id="no-mandates">No mandate was created in this period.</p>`
    }</section>
<section class="card" aria-labelledby="debits-heading"><h2 id="debits-heading">Debits</h2>${
      o.debits.length
        ? scrollableTable(
            'Mandate debits',
            html`<table id="debits"><caption class="muted">Debits created ${period}, under any mandate</caption>
  <thead><tr><th scope="col">Debit orderId</th><th scope="col">Mandate</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Runs</th></tr></thead>
  <tbody>${debitRows}</tbody></table>`,
          )
        : html`<p id="no-debits">No debit in this period.</p>`
    }${o.more ? html`<p>Only the first of the period are shown; choose a shorter period.</p>` : ''}</section>`,
    { current: 'mandates', ...(o.error ? { error: o.error } : {}) },
  );
}
