import { dashboardPage, type DashboardViewer } from './dashboard-layout';
import { html } from './html';

/** Downloads: the ledger of a period and the successful transactions of a day, as CSV (GET forms: nothing changes). */
export function downloadsPage(v: DashboardViewer, o: { today: string; error?: string }): string {
  const today = o.today;
  return dashboardPage(
    'Downloads',
    v,
    html`<section class="card" aria-labelledby="ledger-heading"><h2 id="ledger-heading">Ledger of a period</h2>
  <p>Every transaction created in the period (IST days, both included), with the ledger API's fields; refunds as JSON in refundDetail.</p>
  <form method="get" action="/dashboard/downloads/ledger.csv">
    <label for="ledger-from">From</label><input id="ledger-from" name="from" type="date" value="${today}" required>
    <label for="ledger-to">To</label><input id="ledger-to" name="to" type="date" value="${today}" required>
    <button type="submit" id="download-ledger">Download the ledger (CSV)</button>
  </form></section>
<section class="card" aria-labelledby="day-heading"><h2 id="day-heading">Successful transactions of a day</h2>
  <p>The bulk API's records of the transactions that succeeded that IST day, each with its checksum.</p>
  <form method="get" action="/dashboard/downloads/successful.csv">
    <label for="success-day">Day</label><input id="success-day" name="day" type="date" value="${today}" required>
    <button type="submit" id="download-successful">Download the day's successful transactions (CSV)</button>
  </form></section>`,
    { current: 'downloads', ...(o.error ? { error: o.error } : {}) },
  );
}
