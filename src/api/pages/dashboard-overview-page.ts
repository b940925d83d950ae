import { formatIstDateTime } from '../../domain/ist-time';
import { formatRupees } from '../../domain/money';
import type { DayFigures } from '../../domain/overview';
import type { WebhookEndpointHealth } from '../../domain/webhook-delivery';
import { dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { barChart } from './svg-bar-chart';
import { html, joinHtml, type Html } from './html';

const rate = (r: number | null) => (r === null ? 'no answers yet' : `${(r * 100).toFixed(1)}%`);
const shortDay = (day: string) => day.slice(5).replace('-', '/');

/** What needs the merchant's attention: its webhook endpoint's health, deliveries that failed. */
export interface Attention {
  endpoint: WebhookEndpointHealth;
  failedDeliveries: { count: number; more: boolean; earliest: { _id: string; createdAt: Date; failureReason?: string }[] };
}

function attentionSection(a: Attention) {
  const items: Html[] = [];
  if (a.endpoint.state === 'disabled')
    items.push(
      html`<li id="endpoint-disabled"><strong>Your webhook endpoint is disabled</strong> since ${formatIstDateTime(a.endpoint.disabledAt!)} IST (${
        a.endpoint.disabledReason ?? 'failing'
      }): no webhook is sent until it is enabled again on the <a href="/dashboard/webhooks">Webhooks</a> page.</li>`,
    );
  else if (a.endpoint.failingSince)
    items.push(
      html`<li id="endpoint-failing">Your webhook endpoint has failed every attempt since ${formatIstDateTime(a.endpoint.failingSince)} IST.</li>`,
    );
  if (a.failedDeliveries.count > 0)
    items.push(
      html`<li id="failed-deliveries"><strong>${a.failedDeliveries.count}${a.failedDeliveries.more ? ' or more' : ''} webhook deliver${
        a.failedDeliveries.count === 1 ? 'y' : 'ies'
      } failed</strong> in the last 14 days; the delivery log on the <a href="/dashboard/webhooks">Webhooks</a> page replays them. Earliest: ${joinHtml(
        a.failedDeliveries.earliest.map(
          (d) =>
            html`<code>${d._id}</code> (${formatIstDateTime(d.createdAt)} IST${d.failureReason ? `, ${d.failureReason}` : ''})`,
        ),
        html`, `,
      )}.</li>`,
    );
  return html`<section class="card" aria-labelledby="attention-heading"><h2 id="attention-heading">Needs attention</h2>${
    items.length ? html`<ul id="attention">${items}</ul>` : html`<p id="all-well">Nothing needs your attention.</p>`
  }</section>`;
}

/** The overview: today's figures, the last 14 days as charts (and as a table), and what needs attention. */
export function overviewPage(v: DashboardViewer, days: DayFigures[], attention: Attention): string {
  const today = days.at(-1)!;
  const chart = (id: string, title: string, value: (d: DayFigures) => number, text: (d: DayFigures) => string, max?: number) =>
    barChart({
      id,
      title,
      bars: days.map((d) => ({ label: shortDay(d.day), value: value(d), text: text(d) })),
      ...(max ? { max } : {}),
    });
  const rows = days.map(
    (d) =>
      html`<tr><th scope="row">${d.day}</th><td>${formatRupees(d.volumePaise)}</td><td>${d.count}</td><td>${d.succeeded}</td><td>${d.failed}</td><td>${rate(d.successRate)}</td></tr>`,
  );
  return dashboardPage(
    'Overview',
    v,
    html`<style>.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 1rem; margin: 0; }
  .figures dd { margin: 0; font-size: 1.5rem; font-weight: 700; } .chart { margin: 0 0 1rem; } .chart svg { max-height: 14rem; }</style>
<section class="card" aria-labelledby="merchant-heading"><h2 id="merchant-heading">${v.merchantName}</h2>
  <p>merchantIdentifier <code id="merchant-identifier">${v.merchantIdentifier}</code></p></section>
<section class="card" aria-labelledby="today-heading"><h2 id="today-heading">Today (${today.day}, IST)</h2>
  <dl class="figures"><div><dt>Volume paid</dt><dd id="today-volume">${formatRupees(today.volumePaise)}</dd></div>
  <div><dt>Orders</dt><dd id="today-count">${today.count}</dd></div>
  <div><dt>Success rate</dt><dd id="today-rate">${rate(today.successRate)}</dd></div></dl></section>
${attentionSection(attention)}
<section class="card" aria-labelledby="days-heading"><h2 id="days-heading">The last 14 days</h2>
  ${chart(
    'chart-volume',
    'Volume paid per day (₹)',
    (d) => d.volumePaise,
    (d) => formatRupees(d.volumePaise),
  )}
  ${chart(
    'chart-count',
    'Orders created per day',
    (d) => d.count,
    (d) => `${d.count} orders`,
  )}
  ${chart(
    'chart-rate',
    'Success rate per day (paid among answered)',
    (d) => d.successRate ?? 0,
    (d) => rate(d.successRate),
    1,
  )}
  <details><summary>The same figures as a table</summary>
  ${scrollableTable(
    'Figures of the last 14 days',
    html`<table id="days-table"><caption class="muted">Per IST day: volume paid, orders created, paid, failed, success rate</caption>
  <thead><tr><th scope="col">Day</th><th scope="col">Volume</th><th scope="col">Orders</th><th scope="col">Paid</th><th scope="col">Failed</th><th scope="col">Success rate</th></tr></thead>
  <tbody>${rows}</tbody></table>`,
  )}</details></section>`,
    { current: 'overview' },
  );
}
