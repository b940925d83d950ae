import { formatIstDateTime } from '../../domain/ist-time';
import type { Mandate } from '../../domain/mandate';
import { formatRupees } from '../../domain/money';
import type { Transaction } from '../../domain/transaction';
import { dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { orderPath } from './dashboard-transactions-page';
import { esc } from './layout';

const istDay = (d: Date) => formatIstDateTime(d).slice(0, 10);
const mandateOf = (t: Transaction) => (t.instrument.kind === 'UPI_MANDATE' ? t.instrument.mandateOrderId : '');

/** UPI AutoPay mandates created in a period with their state, and the debits of that period under any mandate. */
export function mandatesPage(
  v: DashboardViewer,
  o: { from: string; to: string; mandates: Mandate[]; debits: Transaction[]; more: boolean; error?: string },
): string {
  const debitsOf = new Map<string, number>();
  for (const t of o.debits) debitsOf.set(mandateOf(t), (debitsOf.get(mandateOf(t)) ?? 0) + 1);
  const mandateRows = o.mandates
    .map(
      (
        m,
      ) => `<tr><td>${esc(m.orderId)}</td><td class="mandate-state">${esc(m.state)}</td><td>${esc(formatRupees(m.maxAmountPaise))}</td>
  <td>${esc(m.frequency)}</td><td>${esc(istDay(m.validFrom))} to ${esc(istDay(new Date(m.validUntil.getTime() - 1)))}</td><td>${esc(formatIstDateTime(m.createdAt))} IST</td><td>${debitsOf.get(m.orderId) ?? 0}</td></tr>`,
    )
    .join('');
  const debitRows = o.debits
    .map(
      (
        t,
      ) => `<tr><td><a href="${esc(orderPath(t.orderId))}">${esc(t.orderId)}</a></td><td>${esc(mandateOf(t))}</td><td>${esc(formatRupees(t.amountPaise))}</td>
  <td>${esc(t.status)}</td><td>${esc(formatIstDateTime(t.executeAt ?? t.createdAt))} IST</td></tr>`,
    )
    .join('');
  const period = `${esc(o.from)} to ${esc(o.to)} (IST)`;
  return dashboardPage(
    'Mandates',
    v,
    `<section class="card" aria-labelledby="period-heading"><h2 id="period-heading">Period</h2>
  <form method="get" action="/dashboard/mandates" aria-label="Period"><label for="m-from">From (IST day)</label><input id="m-from" name="from" type="date" value="${esc(o.from)}">
  <label for="m-to">to (included)</label><input id="m-to" name="to" type="date" value="${esc(o.to)}"><button type="submit" class="inline">Show</button></form></section>
<section class="card" aria-labelledby="mandates-heading"><h2 id="mandates-heading">Mandates created</h2>${
      o.mandates.length
        ? scrollableTable(
            'Mandates',
            `<table id="mandates"><caption class="muted">Created ${period}; debits counted in the same period</caption>
  <thead><tr><th scope="col">orderId</th><th scope="col">State</th><th scope="col">Up to</th><th scope="col">Frequency</th><th scope="col">Valid</th><th scope="col">Created</th><th scope="col">Debits</th></tr></thead>
  <tbody>${mandateRows}</tbody></table>`,
          )
        : '<p id="no-mandates">No mandate was created in this period.</p>'
    }</section>
<section class="card" aria-labelledby="debits-heading"><h2 id="debits-heading">Debits</h2>${
      o.debits.length
        ? scrollableTable(
            'Mandate debits',
            `<table id="debits"><caption class="muted">Debits created ${period}, under any mandate</caption>
  <thead><tr><th scope="col">Debit orderId</th><th scope="col">Mandate</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Runs</th></tr></thead>
  <tbody>${debitRows}</tbody></table>`,
          )
        : '<p id="no-debits">No debit in this period.</p>'
    }${o.more ? '<p>Only the first of the period are shown; choose a shorter period.</p>' : ''}</section>`,
    { current: 'mandates', ...(o.error ? { error: o.error } : {}) },
  );
}
