import { mayDo } from '../../domain/dashboard-roles';
import { formatIstDateTime } from '../../domain/ist-time';
import type { Merchant, WebhookSigningSecret } from '../../domain/merchant';
import type { TestWebhookResult, WebhookDeliverySummary, WebhookEndpointHealth } from '../../domain/webhook-delivery';
import { csrfField, dashboardPage, maskedSecret, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { html, joinHtml, type HtmlValue } from './html';

const ist = (d: Date | null) => (d ? `${formatIstDateTime(d)} IST` : '—');

export interface WebhooksView {
  merchant: Merchant;
  secrets: WebhookSigningSecret[];
  health: WebhookEndpointHealth;
  deliveries: WebhookDeliverySummary[];
}

/** Webhook settings, signing secret, endpoint health, a test call and the delivery log with replay. */
export function webhooksPage(
  v: DashboardViewer,
  w: WebhooksView,
  o: { test?: TestWebhookResult; notice?: string; error?: string; url?: string; revealed?: string } = {},
): string {
  const can = mayDo(v.role, 'webhooks');
  const m = w.merchant;
  const form = (action: string, button: HtmlValue, cls = 'inline') =>
    html`<form method="post" action="${action}">${csrfField(v.csrf)}<button class="${cls}" type="submit">${button}</button></form>`;
  const disabled = can ? '' : ' disabled';

  const settings = html`<section class="card" aria-labelledby="settings"><h2 id="settings">Settings</h2>
  <form method="post" action="/dashboard/webhooks/settings">${csrfField(v.csrf)}
    <label for="webhookUrl">Webhook URL (empty: no webhooks)</label>
    <input id="webhookUrl" name="webhookUrl" type="url" value="${o.url ?? m.webhookUrl ?? ''}"${disabled}>
    <label for="webhookFormat">Body format</label>
    <select id="webhookFormat" name="webhookFormat"${disabled}>
      <option value="form"${m.webhookFormat === 'form' ? ' selected' : ''}>form: txnData=…&amp;checksum=…</option>
      <option value="json"${m.webhookFormat === 'json' ? ' selected' : ''}>JSON: {"txnData": "…", "checksum": "…"}</option>
    </select>
    <p><input type="checkbox" id="autoRefund" name="autoRefund" value="on"${m.autoRefund ? ' checked' : ''}${mayDo(v.role, 'payments') ? '' : ' disabled'} style="width:auto">
    <label for="autoRefund" style="display:inline">Refund a delayed success (found by reconciliation) at once</label></p>
    <p><input type="checkbox" id="settlementWebhook" name="settlementWebhook" value="on"${m.settlementWebhook ? ' checked' : ''}${disabled} style="width:auto">
    <label for="settlementWebhook" style="display:inline">Send a <code>settlement.processed</code> webhook when a settlement is paid</label></p>
    ${can ? html`<button type="submit">Save webhook settings</button>` : ''}
  </form></section>`;

  const mayRotate = mayDo(v.role, 'signingSecret');
  const revealed = o.revealed
    ? html`<p>Copy the new secret now: it is shown in full only this once.</p><p><code id="new-signing-secret" class="secret">${o.revealed}</code></p>`
    : '';
  // Whoever holds the secret can forge calls the merchant's server trusts: masked for everyone, and
  // shown in full only once, to whoever rotated it.
  const secrets = html`<section class="card" aria-labelledby="signing"><h2 id="signing">Signing secret (Standard Webhooks)</h2>
  <p>Verify the <code>webhook-signature</code> header with it. ${w.secrets.length > 1 ? 'During the overlap both secrets sign each call.' : ''}</p>
  ${revealed}<ul>${w.secrets.map((s) => html`<li><code class="signing-secret-masked">${maskedSecret(s.secret)}</code> since ${ist(s.createdAt)}${s.retiresAt ? `, until ${ist(s.retiresAt)}` : ''}</li>`)}</ul>
  ${mayRotate ? html`${form('/dashboard/webhooks/signing-secret/rotate', 'Rotate signing secret', 'inline secondary')}<p class="muted">The new secret is shown once, here; the previous one keeps signing during the overlap.</p>` : html`<p id="signing-secret-hidden">Shown in full only to owners and developers, once, when they rotate it.</p>`}</section>`;

  const h = w.health;
  const health = html`<section class="card" aria-labelledby="health"><h2 id="health">Endpoint health</h2>
  <p id="endpoint-state">${h.state === 'disabled' ? html`<strong class="bad">Disabled</strong> since ${ist(h.disabledAt)}: ${h.disabledReason ?? ''}. Calls due meanwhile are kept as failed deliveries; replay them once it is enabled.` : html`<strong class="ok">Enabled</strong>`}</p>
  <p>Last success ${ist(h.lastSuccessAt)}; last failure ${ist(h.lastFailureAt)}.</p>
  ${h.state === 'disabled' && can ? form('/dashboard/webhooks/endpoint/enable', 'Re-enable the endpoint') : ''}</section>`;

  const t = o.test;
  const test = html`<section class="card" aria-labelledby="test"><h2 id="test">Send a test webhook</h2>
  <p>One call to your URL shaped and signed like real ones, for order <code>TEST-WEBHOOK</code>; not stored as a delivery.</p>
  ${
    t
      ? html`<div role="status" id="test-result"><p>${t.url} answered: <strong id="test-status">${t.httpStatus === null ? 'no answer' : `HTTP ${t.httpStatus}`}</strong> ${t.acknowledged ? html`<span class="ok">(acknowledged with SUCCESS)</span>` : html`<span class="bad">(not acknowledged: a real delivery would be retried)</span>`}</p>
  ${t.response !== null ? html`<p>Body: <code id="test-response">${t.response}</code></p>` : ''}${t.error ? html`<p class="bad">${t.error}</p>` : ''}</div>`
      : ''
  }
  ${can && m.webhookUrl ? form('/dashboard/webhooks/test', 'Send a test webhook') : m.webhookUrl ? '' : html`<p>Set a webhook URL first.</p>`}</section>`;

  const rows = w.deliveries.map((d) => {
    const attempts = joinHtml(
      d.attempts.map(
        (a) => `#${a.attempt} ${ist(a.at)}: ${a.httpStatus === null ? (a.error ?? 'no answer') : `HTTP ${a.httpStatus}`}`,
      ),
      html`<br>`,
    );
    return html`<tr><td><code>${d._id}</code>${d.replayOf ? html`<br>replay of <code>${d.replayOf}</code>` : ''}</td><td>${ist(d.createdAt)}</td><td>${d.state}${d.failureReason ? ` (${d.failureReason})` : ''}${d.supersededBy ? ` (by ${d.supersededBy})` : ''}</td><td>${d.attempts.length ? attempts : '—'}</td>
  <td>${can ? form(`/dashboard/webhooks/deliveries/${encodeURIComponent(d._id)}/replay`, html`Replay<span class="sr-only"> ${d._id}</span>`) : ''}</td></tr>`;
  });
  const log = html`<section class="card" aria-labelledby="log"><h2 id="log">Delivery log</h2>
  ${w.deliveries.length ? scrollableTable('Table of webhook deliveries', html`<table><thead><tr><th scope="col">Delivery</th><th scope="col">Created</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Replay</th></tr></thead><tbody>${rows}</tbody></table>`) : html`<p>No deliveries yet.</p>`}</section>`;

  return dashboardPage(
    'Webhooks',
    v,
    o.revealed ? html`${secrets}${settings}${test}${health}${log}` : html`${settings}${test}${health}${secrets}${log}`,
    {
      current: 'webhooks',
      ...(o.notice ? { notice: o.notice } : {}),
      ...(o.error ? { error: o.error } : {}),
    },
  );
}
