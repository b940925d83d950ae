import { mayDo } from '../../domain/dashboard-roles';
import { formatIstDateTime } from '../../domain/ist-time';
import type { Merchant, WebhookSigningSecret } from '../../domain/merchant';
import type { WebhookEndpointHealth } from '../../store/webhook-endpoint-repository';
import type { WebhookDeliverySummary } from '../../store/webhook-repository';
import type { TestWebhookResult } from '../../usecases/send-test-webhook';
import { csrfField, dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { esc } from './layout';

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
  o: { test?: TestWebhookResult; notice?: string; error?: string; url?: string } = {},
): string {
  const can = mayDo(v.role, 'webhooks');
  const m = w.merchant;
  const form = (action: string, button: string, cls = 'inline') =>
    `<form method="post" action="${esc(action)}">${csrfField(v.csrf)}<button class="${cls}" type="submit">${button}</button></form>`;
  const disabled = can ? '' : ' disabled';

  const settings = `<section class="card" aria-labelledby="settings"><h2 id="settings">Settings</h2>
  <form method="post" action="/dashboard/webhooks/settings">${csrfField(v.csrf)}
    <label for="webhookUrl">Webhook URL (empty: no webhooks)</label>
    <input id="webhookUrl" name="webhookUrl" type="url" value="${esc(o.url ?? m.webhookUrl ?? '')}"${disabled}>
    <label for="webhookFormat">Body format</label>
    <select id="webhookFormat" name="webhookFormat"${disabled}>
      <option value="form"${m.webhookFormat === 'form' ? ' selected' : ''}>form: txnData=…&amp;checksum=…</option>
      <option value="json"${m.webhookFormat === 'json' ? ' selected' : ''}>JSON: {"txnData": "…", "checksum": "…"}</option>
    </select>
    <p><input type="checkbox" id="autoRefund" name="autoRefund" value="on"${m.autoRefund ? ' checked' : ''}${disabled} style="width:auto">
    <label for="autoRefund" style="display:inline">Refund a delayed success (found by reconciliation) at once</label></p>
    ${can ? '<button type="submit">Save webhook settings</button>' : ''}
  </form></section>`;

  const secrets = `<section class="card" aria-labelledby="signing"><h2 id="signing">Signing secret (Standard Webhooks)</h2>
  <p>Verify the <code>webhook-signature</code> header with it. ${w.secrets.length > 1 ? 'During the overlap both secrets sign each call.' : ''}</p>
  <ul>${w.secrets.map((s) => `<li><code class="secret signing-secret">${esc(s.secret)}</code> since ${esc(ist(s.createdAt))}${s.retiresAt ? `, until ${esc(ist(s.retiresAt))}` : ''}</li>`).join('')}</ul>
  ${can ? form('/dashboard/webhooks/signing-secret/rotate', 'Rotate signing secret', 'inline secondary') : ''}</section>`;

  const h = w.health;
  const health = `<section class="card" aria-labelledby="health"><h2 id="health">Endpoint health</h2>
  <p id="endpoint-state">${h.state === 'disabled' ? `<strong class="bad">Disabled</strong> since ${esc(ist(h.disabledAt))}: ${esc(h.disabledReason ?? '')}. Calls due meanwhile are kept as failed deliveries; replay them once it is enabled.` : '<strong class="ok">Enabled</strong>'}</p>
  <p>Last success ${esc(ist(h.lastSuccessAt))}; last failure ${esc(ist(h.lastFailureAt))}.</p>
  ${h.state === 'disabled' && can ? form('/dashboard/webhooks/endpoint/enable', 'Re-enable the endpoint') : ''}</section>`;

  const t = o.test;
  const test = `<section class="card" aria-labelledby="test"><h2 id="test">Send a test webhook</h2>
  <p>One call to your URL shaped and signed like real ones, for order <code>TEST-WEBHOOK</code>; not stored as a delivery.</p>
  ${
    t
      ? `<div role="status" id="test-result"><p>${esc(t.url)} answered: <strong id="test-status">${t.httpStatus === null ? 'no answer' : `HTTP ${t.httpStatus}`}</strong> ${t.acknowledged ? '<span class="ok">(acknowledged with SUCCESS)</span>' : '<span class="bad">(not acknowledged: a real delivery would be retried)</span>'}</p>
  ${t.response !== null ? `<p>Body: <code id="test-response">${esc(t.response)}</code></p>` : ''}${t.error ? `<p class="bad">${esc(t.error)}</p>` : ''}</div>`
      : ''
  }
  ${can && m.webhookUrl ? form('/dashboard/webhooks/test', 'Send a test webhook') : m.webhookUrl ? '' : '<p>Set a webhook URL first.</p>'}</section>`;

  const rows = w.deliveries
    .map((d) => {
      const attempts = d.attempts
        .map(
          (a) =>
            `#${a.attempt} ${esc(ist(a.at))}: ${a.httpStatus === null ? esc(a.error ?? 'no answer') : `HTTP ${a.httpStatus}`}`,
        )
        .join('<br>');
      return `<tr><td><code>${esc(d._id)}</code>${d.replayOf ? `<br>replay of <code>${esc(d.replayOf)}</code>` : ''}</td><td>${esc(ist(d.createdAt))}</td><td>${esc(d.state)}${d.failureReason ? ` (${esc(d.failureReason)})` : ''}</td><td>${attempts || '—'}</td>
  <td>${can ? form(`/dashboard/webhooks/deliveries/${encodeURIComponent(d._id)}/replay`, `Replay<span class="sr-only"> ${esc(d._id)}</span>`) : ''}</td></tr>`;
    })
    .join('');
  const log = `<section class="card" aria-labelledby="log"><h2 id="log">Delivery log</h2>
  ${w.deliveries.length ? scrollableTable('Table of webhook deliveries', `<table><thead><tr><th scope="col">Delivery</th><th scope="col">Created</th><th scope="col">State</th><th scope="col">Attempts</th><th scope="col">Replay</th></tr></thead><tbody>${rows}</tbody></table>`) : '<p>No deliveries yet.</p>'}</section>`;

  return dashboardPage('Webhooks', v, `${settings}${test}${health}${secrets}${log}`, {
    current: 'webhooks',
    ...(o.notice ? { notice: o.notice } : {}),
    ...(o.error ? { error: o.error } : {}),
  });
}
