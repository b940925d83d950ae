import { formatIstDateTime } from '../../domain/ist-time';
import { formatRupees } from '../../domain/money';
import type { DayFigures } from '../../domain/overview';
import type { WebhookEndpointHealth } from '../../store/webhook-endpoint-repository';
import { dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { esc } from './layout';
import { barChart } from './svg-bar-chart';

const rate = (r: number | null) => (r === null ? 'no answers yet' : `${(r * 100).toFixed(1)}%`);
const shortDay = (day: string) => day.slice(5).replace('-', '/');

/** What needs the merchant's attention: its webhook endpoint's health, deliveries that failed. */
export interface Attention {
  endpoint: WebhookEndpointHealth;
  failedDeliveries: { count: number; more: boolean; earliest: { _id: string; createdAt: Date; failureReason?: string }[] };
}

function attentionSection(a: Attention): string {
  const items: string[] = [];
  if (a.endpoint.state === 'disabled')
    items.push(
      `<li id="endpoint-disabled"><strong>Your webhook endpoint is disabled</strong> since ${esc(formatIstDateTime(a.endpoint.disabledAt!))} IST (${esc(
        a.endpoint.disabledReason ?? 'failing',
      )}): no webhook is sent until it is enabled again on the <a href="/dashboard/webhooks">Webhooks</a> page.</li>`,
    );
  else if (a.endpoint.failingSince)
    items.push(
      `<li id="endpoint-failing">Your webhook endpoint has failed every attempt since ${esc(formatIstDateTime(a.endpoint.failingSince))} IST.</li>`,
    );
  if (a.failedDeliveries.count > 0)
    items.push(
      `<li id="failed-deliveries"><strong>${a.failedDeliveries.count}${a.failedDeliveries.more ? ' or more' : ''} webhook deliver${
        a.failedDeliveries.count === 1 ? 'y' : 'ies'
      } failed</strong> in the last 14 days; the delivery log on the <a href="/dashboard/webhooks">Webhooks</a> page replays them. Earliest: ${a.failedDeliveries.earliest
        .map(
          (d) =>
            `<code>${esc(d._id)}</code> (${esc(formatIstDateTime(d.createdAt))} IST${d.failureReason ? `, ${esc(d.failureReason)}` : ''})`,
        )
        .join(', ')}.</li>`,
    );
  return `<section class="card" aria-labelledby="attention-heading"><h2 id="attention-heading">Needs attention</h2>${
    items.length ? `<ul id="attention">${items.join('')}</ul>` : '<p id="all-well">Nothing needs your attention.</p>'
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
  const rows = days
    .map(
      (d) =>
        `<tr><th scope="row">${esc(d.day)}</th><td>${esc(formatRupees(d.volumePaise))}</td><td>${d.count}</td><td>${d.succeeded}</td><td>${d.failed}</td><td>${esc(rate(d.successRate))}</td></tr>`,
    )
    .join('');
  return dashboardPage(
    'Overview',
    v,
    `<style>.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 1rem; margin: 0; }
  .figures dd { margin: 0; font-size: 1.5rem; font-weight: 700; } .chart { margin: 0 0 1rem; } .chart svg { max-height: 14rem; }</style>
<section class="card" aria-labelledby="merchant-heading"><h2 id="merchant-heading">${esc(v.merchantName)}</h2>
  <p>merchantIdentifier <code id="merchant-identifier">${esc(v.merchantIdentifier)}</code></p></section>
<section class="card" aria-labelledby="today-heading"><h2 id="today-heading">Today (${esc(today.day)}, IST)</h2>
  <dl class="figures"><div><dt>Volume paid</dt><dd id="today-volume">${esc(formatRupees(today.volumePaise))}</dd></div>
  <div><dt>Orders</dt><dd id="today-count">${today.count}</dd></div>
  <div><dt>Success rate</dt><dd id="today-rate">${esc(rate(today.successRate))}</dd></div></dl></section>
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
    `<table id="days-table"><caption class="muted">Per IST day: volume paid, orders created, paid, failed, success rate</caption>
  <thead><tr><th scope="col">Day</th><th scope="col">Volume</th><th scope="col">Orders</th><th scope="col">Paid</th><th scope="col">Failed</th><th scope="col">Success rate</th></tr></thead>
  <tbody>${rows}</tbody></table>`,
  )}</details></section>`,
    { current: 'overview' },
  );
}
