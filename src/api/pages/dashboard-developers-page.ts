import { mayDo } from '../../domain/dashboard-roles';
import { formatIstDateTime } from '../../domain/ist-time';
import type { ApiKeyInfo, Merchant } from '../../domain/merchant';
import { csrfField, dashboardPage, maskedSecret, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { html, type HtmlValue } from './html';

const ist = (d: Date | null) => (d ? `${formatIstDateTime(d)} IST` : '—');

/** What was just made and is shown this once. */
export type Revealed =
  { kind: 'apiKey'; label: string; apiKey: string } | { kind: 'secretKey'; secretKey: string; previousKeyAcceptedUntil: Date };

/** merchantIdentifier, API keys, the secret key's rotation and the RSA keys; forms only for keys permission. */
export function developersPage(
  v: DashboardViewer,
  m: { merchant: Merchant; apiKeys: ApiKeyInfo[]; now: Date },
  o: { revealed?: Revealed; notice?: string; error?: string } = {},
): string {
  const canChange = mayDo(v.role, 'keys');
  // Credentials that move money (a new API key, the secret key): owners only.
  const canHoldCredentials = mayDo(v.role, 'credentials');
  const form = (action: string, button: HtmlValue, extra: HtmlValue = '', cls = 'inline') =>
    html`<form method="post" action="${action}">${csrfField(v.csrf)}${extra}<button class="${cls}" type="submit">${button}</button></form>`;

  const revealed =
    o.revealed?.kind === 'apiKey'
      ? html`<section class="card" aria-labelledby="revealed"><h2 id="revealed">New API key “${o.revealed.label}”</h2>
  <p>Copy it now: it is shown only this once (the gateway keeps only its hash). Send it as the <code>X-API-Key</code> header.</p>
  <p><code id="new-api-key" class="secret">${o.revealed.apiKey}</code></p></section>`
      : o.revealed?.kind === 'secretKey'
        ? html`<section class="card" aria-labelledby="revealed"><h2 id="revealed">New secret key</h2>
  <p>Copy it now: it is shown only this once. The gateway signs with it from now on; checksums made with the previous key are accepted until ${ist(o.revealed.previousKeyAcceptedUntil)}.</p>
  <p><code id="new-secret-key" class="secret">${o.revealed.secretKey}</code></p></section>`
        : '';

  const keyRows = m.apiKeys.map(
    (k) => html`<tr><td>${k.label}</td><td><code>${k.keyId}</code></td><td>${ist(k.createdAt)}</td><td>${ist(k.lastUsedAt)}</td>
  <td>${k.revokedAt ? `revoked ${ist(k.revokedAt)}` : canChange ? form(`/dashboard/developers/api-keys/${encodeURIComponent(k.keyId)}/revoke`, html`Revoke <span class="sr-only">${k.label}</span>`, '', 'inline secondary') : 'active'}</td></tr>`,
  );
  const apiKeys = html`<section class="card" aria-labelledby="api-keys"><h2 id="api-keys">API keys</h2>
  <p>For the ledger, bulk and payment link APIs. Every key that is not revoked works.</p>
  ${scrollableTable('Table of API keys', html`<table><thead><tr><th scope="col">Label</th><th scope="col">Key id</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th></tr></thead><tbody>${keyRows}</tbody></table>`)}
  ${
    canHoldCredentials
      ? html`<form method="post" action="/dashboard/developers/api-keys">${csrfField(v.csrf)}
    <label for="api-key-label">Label of a new key</label><input id="api-key-label" name="label" maxlength="60" required>
    <button type="submit">Create API key</button></form>`
      : ''
  }</section>`;

  const overlap = m.merchant.previousSecretKeys.filter((p) => p.retiresAt > m.now);
  const secret = html`<section class="card" aria-labelledby="secret-key"><h2 id="secret-key">Secret key</h2>
  <p>Signs checksums both ways: <code id="secret-key-masked">${maskedSecret(m.merchant.secretKey)}</code> (shown in full only once, to the owner who rotates it).</p>
  <p>${overlap.length ? `A previous key is still accepted until ${ist(overlap[0].retiresAt)}.` : 'No previous key is accepted.'}</p>
  ${canHoldCredentials ? html`${form('/dashboard/developers/secret-key/rotate', 'Rotate secret key', '', 'inline secondary')}<p class="muted">The old key keeps working for 24 hours, so your deployment can roll.</p>` : ''}
  ${canHoldCredentials && overlap.length ? html`${form('/dashboard/developers/secret-key/revoke-previous', 'Revoke the previous key now', html`<input type="hidden" name="previousKeyAcceptedUntil" value="${overlap[0].retiresAt.toISOString()}">`, 'inline secondary')}<p class="muted">If the previous key may have leaked: it is refused at once, also by a deployment still signing with it.</p>` : ''}</section>`;

  const rsaRows = m.merchant.encryptionKeys.map(
    (k, i) => html`<tr><td><code>${k.keyId}</code>${i === 0 ? ' (encrypt with this one)' : ''}</td><td>${ist(k.createdAt)}</td>
  <td><a href="/dashboard/developers/encryption-keys/${encodeURIComponent(k.keyId)}.pem" download>Download public key<span class="sr-only"> ${k.keyId}</span></a>
  ${i > 0 && canChange ? form(`/dashboard/developers/encryption-keys/${encodeURIComponent(k.keyId)}/retire`, html`Retire <span class="sr-only">${k.keyId}</span>`, '', 'inline secondary') : ''}</td></tr>`,
  );
  const rsa = html`<section class="card" aria-labelledby="rsa-keys"><h2 id="rsa-keys">RSA keys for payerVpa</h2>
  <p>Encrypt <code>payerVpa</code> with the first public key and send its <code>encryptionKeyId</code>; older keys still decrypt until retired.</p>
  ${scrollableTable('Table of RSA keys', html`<table><thead><tr><th scope="col">encryptionKeyId</th><th scope="col">Created</th><th scope="col">Public key</th></tr></thead><tbody>${rsaRows}</tbody></table>`)}
  ${canChange ? form('/dashboard/developers/encryption-keys/rotate', 'Rotate RSA key', '', 'inline') : ''}</section>`;

  return dashboardPage(
    'Developers',
    v,
    html`${revealed}<section class="card" aria-labelledby="ids"><h2 id="ids">Your merchant</h2>
  <p>merchantIdentifier <code id="merchant-identifier">${m.merchant.merchantIdentifier}</code></p>
  <p>Webhook address, format and deliveries: <a href="/dashboard/webhooks">Webhooks</a>.</p></section>
${apiKeys}${secret}${rsa}`,
    { current: 'developers', ...(o.notice ? { notice: o.notice } : {}), ...(o.error ? { error: o.error } : {}) },
  );
}
