import { formatIstDateTime } from '../../domain/ist-time';
import { describeInstrument } from '../../domain/instrument';
import { formatRupees } from '../../domain/money';
import { refundablePaise } from '../../domain/refund';
import type { Transaction } from '../../domain/transaction';
import { TRANSACTION_KIND_LABELS, TRANSACTION_KINDS, transactionKind } from '../../domain/transaction-kind';
import { TxnStatus } from '../../domain/txn-status';
import { mayDo } from '../../domain/dashboard-roles';
import type { WebhookDelivery } from '../../domain/webhook-delivery';
import { csrfField, dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { html } from './html';

const ist = (d: Date) => `${formatIstDateTime(d)} IST`;
export const orderPath = (orderId: string) => `/dashboard/transactions/${encodeURIComponent(orderId)}`;

const option = (value: string, label: string, selected: string | undefined) =>
  html`<option value="${value}"${value === selected ? ' selected' : ''}>${label}</option>`;

/** What the search form shows: the fields as the user gave them (dates filled in with the period searched). */
export interface SearchFormValues {
  orderId?: string;
  txnId?: string;
  status?: string;
  kind?: string;
  from: string;
  to: string;
}

function searchForm(f: SearchFormValues) {
  const input = (id: keyof SearchFormValues, label: string, type = 'text') =>
    html`<div><label for="q-${id}">${label}</label><input id="q-${id}" name="${id}" type="${type}" value="${f[id] ?? ''}"></div>`;
  return html`<form method="get" action="/dashboard/transactions" class="search" role="search" aria-label="Transactions">
  <div class="fields">
  ${input('orderId', 'orderId')}${input('txnId', 'txnId')}
  <div><label for="q-status">Status</label><select id="q-status" name="status">${option('', 'Any', f.status)}${Object.keys(
    TxnStatus,
  ).map((s) => option(s, s, f.status))}</select></div>
  <div><label for="q-kind">Kind</label><select id="q-kind" name="kind">${option('', 'Any', f.kind)}${TRANSACTION_KINDS.map((k) =>
    option(k, TRANSACTION_KIND_LABELS[k], f.kind),
  )}</select></div>
  ${input('from', 'Created from (IST day)', 'date')}${input('to', 'to (IST day, included)', 'date')}
  </div>
  <button type="submit" class="inline">Search</button>
</form>`;
}

const SEARCH_STYLE = html`<style>
  .search .fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0 1rem; }
  .timeline { list-style: none; padding: 0; } .timeline li { border-left: 3px solid #0b4ea2; padding: .25rem 0 .75rem .75rem; }
  dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; } dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
</style>`;

/** The search page: the form, and a page of results with a link to the next (a keyset cursor). */
export function transactionSearchPage(
  v: DashboardViewer,
  f: SearchFormValues,
  rows: Transaction[],
  o: { nextHref?: string; error?: string; status?: number },
): string {
  const body = rows.map(
    (t) => html`<tr><td><a href="${orderPath(t.orderId)}">${t.orderId}</a></td><td><code>${t.txnId}</code></td>
  <td>${ist(t.createdAt)}</td><td>${formatRupees(t.amountPaise)}</td><td>${t.status}</td><td>${TRANSACTION_KIND_LABELS[transactionKind(t)]}</td></tr>`,
  );
  const results = o.error
    ? ''
    : rows.length === 0
      ? html`<p id="no-results">No transaction matches this search.</p>`
      : html`${scrollableTable(
          'Transactions found',
          html`<table id="results"><caption class="muted">Oldest first, created ${f.from} to ${f.to} (IST)</caption>
  <thead><tr><th scope="col">orderId</th><th scope="col">txnId</th><th scope="col">Created</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Kind</th></tr></thead>
  <tbody>${body}</tbody></table>`,
        )}${o.nextHref ? html`<p><a id="next-page" href="${o.nextHref}">Next page</a></p>` : ''}`;
  return dashboardPage(
    'Transactions',
    v,
    html`${SEARCH_STYLE}<section class="card" aria-labelledby="search-heading"><h2 id="search-heading">Search</h2>${searchForm(f)}</section>
<section class="card" aria-labelledby="results-heading"><h2 id="results-heading">Results</h2>${results}</section>`,
    { current: 'transactions', ...(o.error ? { error: o.error } : {}) },
  );
}

interface TimelineEvent {
  at: Date;
  text: string;
}

/** Everything that happened to the order, in time order: creation, the bank's answer, refunds, chargeback, webhooks. */
function timeline(t: Transaction, deliveries: WebhookDelivery[]): TimelineEvent[] {
  const events: TimelineEvent[] = [
    { at: t.createdAt, text: `Created: ${formatRupees(t.amountPaise)}, ${describeInstrument(t.instrument)}` },
  ];
  if (t.completedAt)
    events.push({
      at: t.completedAt,
      text: `Bank answered: ${t.status === 'Pending' ? 'pending' : t.successAt ? 'paid' : 'failed'} — ${t.responseCode} ${t.responseDescription}${
        t.bankRefNum ? ` (bank reference ${t.bankRefNum})` : ''
      }${t.delayedSuccess ? ', found by reconciliation' : ''}`,
    });
  for (const r of t.refunds) {
    events.push({
      at: r.createdAt,
      text: `Refund ${r.merchantRefId} requested: ${formatRupees(r.amountPaise)}${r.updateReason ? ` (${r.updateReason})` : ''}${r.auto ? ', automatic' : ''}`,
    });
    if (r.completedAt)
      events.push({
        at: r.completedAt,
        text: `Refund ${r.merchantRefId} ${r.status.toLowerCase()}${r.rrn ? `, RRN ${r.rrn}` : ''}`,
      });
  }
  if (t.chargeback) {
    events.push({ at: t.chargeback.raisedAt, text: `Chargeback raised: ${formatRupees(t.chargeback.amountPaise)}` });
    if (t.chargeback.revertedAt) events.push({ at: t.chargeback.revertedAt, text: 'Chargeback reverted' });
  }
  for (const d of deliveries) {
    for (const a of d.attempts)
      events.push({
        at: a.at,
        text: `Webhook attempt ${a.attempt} to ${d.url}: ${a.httpStatus === null ? `no answer (${a.error ?? 'error'})` : `HTTP ${a.httpStatus}`}${
          a.response ? ` — answered “${a.response.slice(0, 120)}”` : ''
        } in ${a.durationMs} ms`,
      });
    if (d.attempts.length === 0) events.push({ at: d.createdAt, text: `Webhook to ${d.url}: waiting for its first attempt` });
  }
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}

function refundForms(v: DashboardViewer, t: Transaction, refundId: string) {
  const remaining = refundablePaise(t);
  const refundable = ['Success', 'PartialRefund'].includes(t.status) && remaining > 0;
  if (!mayDo(v.role, 'payments')) return html`<p class="muted" id="refund-not-allowed">Your role cannot refund.</p>`;
  if (!refundable) return html`<p id="not-refundable">Nothing of this order can be refunded.</p>`;
  const action = `${orderPath(t.orderId)}/refunds`;
  const common = html`${csrfField(v.csrf)}<input type="hidden" name="refundId" value="${refundId}">`;
  return html`<p>What remains to refund: <strong id="remaining">${formatRupees(remaining)}</strong></p>
  <form method="post" action="${action}" aria-labelledby="partial-heading">${common}<input type="hidden" name="updateDesired" value="22">
    <h3 id="partial-heading">Refund part</h3>
    <label for="refund-amount">Amount in rupees</label><input id="refund-amount" name="amount" inputmode="decimal" required>
    <label for="refund-reason">Reason (5 to 30 letters, digits, spaces)</label><input id="refund-reason" name="reason" required>
    <button type="submit" id="refund-partial">Refund this amount</button>
  </form>
  <form method="post" action="${action}" aria-labelledby="full-heading">${common}<input type="hidden" name="updateDesired" value="14">
    <h3 id="full-heading">Refund all that remains</h3>
    <label for="full-reason">Reason</label><input id="full-reason" name="reason" required>
    <button type="submit" class="secondary" id="refund-full">Refund ${formatRupees(remaining)}</button>
  </form>`;
}

/** One order: its facts, its timeline, its workflow in Temporal UI, and (for whoever may) its refund forms. */
export function transactionDetailPage(
  v: DashboardViewer,
  t: Transaction,
  o: {
    deliveries: WebhookDelivery[];
    workflowUrl: string | null;
    refundId: string;
    /** The sale's settlement state (null: the order was never paid). */
    settlement?: { text: string; event?: TimelineEvent } | null;
    notice?: string;
    error?: string;
  },
): string {
  const fact = (k: string, value: string, id?: string) => html`<dt>${k}</dt><dd${id ? html` id="${id}"` : ''}>${value}</dd>`;
  const events = [...timeline(t, o.deliveries), ...(o.settlement?.event ? [o.settlement.event] : [])]
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((e) => html`<li><time datetime="${e.at.toISOString()}">${ist(e.at)}</time><br>${e.text}</li>`);
  return dashboardPage(
    `Order ${t.orderId}`,
    v,
    html`${SEARCH_STYLE}<p><a href="/dashboard/transactions">Back to the search</a></p>
<section class="card" aria-labelledby="facts-heading"><h2 id="facts-heading">The order</h2><dl class="facts">
  ${fact('orderId', t.orderId)}${fact('txnId', t.txnId)}${fact('Amount', formatRupees(t.amountPaise))}${fact('Status', t.status, 'txn-status')}
  ${fact('Kind', TRANSACTION_KIND_LABELS[transactionKind(t)])}${fact('Instrument', describeInstrument(t.instrument))}
  ${fact('Refunded or being refunded', formatRupees(t.refundReservedPaise ?? 0), 'refunded')}
  ${o.settlement ? fact('Settlement', o.settlement.text, 'settlement-state') : ''}
  ${fact('Product', t.productDescription)}</dl>
  ${o.workflowUrl ? html`<p><a id="workflow-link" href="${o.workflowUrl}" rel="noreferrer">The order's workflow in Temporal UI</a></p>` : ''}</section>
<section class="card" aria-labelledby="timeline-heading"><h2 id="timeline-heading">Timeline</h2><ol class="timeline" id="timeline">${events}</ol>
  <p class="muted">Non-real-time webhooks (reconciliation, automatic refunds) are batched with other orders' updates: see the delivery log on the <a href="/dashboard/webhooks">Webhooks</a> page.</p></section>
<section class="card" aria-labelledby="refund-heading"><h2 id="refund-heading">Refund</h2>${refundForms(v, t, o.refundId)}</section>`,
    { current: 'transactions', ...(o.notice ? { notice: o.notice } : {}), ...(o.error ? { error: o.error } : {}) },
  );
}
