import type { AuditActor, AuditRecord } from '../../domain/audit';
import { formatIstDateTime } from '../../domain/ist-time';
import { dashboardPage, scrollableTable, type DashboardViewer } from './dashboard-layout';
import { html, joinHtml } from './html';

/** A record as the audit trail lists it (at as ISO 8601). */
export type AuditRow = Omit<AuditRecord, 'at'> & { id: string; at: string };

const who = (a: AuditActor) =>
  a.kind === 'staff' ? a.email : a.kind === 'operator' ? `operator ${a.name}` : `gateway (${a.name})`;

/** The merchant's audit trail, newest first: who did what, when and from which address. */
export function auditPage(v: DashboardViewer, o: { records: AuditRow[]; olderHref: string | null; error?: string }): string {
  const rows = o.records.map((r) => {
    const detail = joinHtml(
      Object.entries(r.detail).map(([k, x]) => html`${k}: <code>${String(x)}</code>`),
      html`<br>`,
    );
    return html`<tr><td>${formatIstDateTime(new Date(r.at))} IST</td><td class="audit-action"><code>${r.action}</code></td><td class="audit-actor">${who(r.actor)}</td><td>${r.from ?? '—'}</td><td>${Object.keys(r.detail).length ? detail : '—'}</td></tr>`;
  });
  const table = o.records.length
    ? scrollableTable(
        'Audit trail',
        html`<table id="audit"><caption class="muted">Newest first</caption>
  <thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">By</th><th scope="col">From</th><th scope="col">Detail</th></tr></thead>
  <tbody>${rows}</tbody></table>`,
      )
    : html`<p id="no-records">Nothing recorded yet.</p>`;
  return dashboardPage(
    'Audit trail',
    v,
    html`<section class="card" aria-labelledby="audit-heading"><h2 id="audit-heading">Changes to your merchant</h2>
  <p>Every change to users, keys, secrets, webhook settings, refunds and the settlement account, made here or by the gateway's operators. Records are kept as written: nobody can edit or remove them.</p>
  ${table}${o.olderHref ? html`<p><a href="${o.olderHref}" id="older">Older records</a></p>` : ''}</section>`,
    { current: 'audit', ...(o.error ? { error: o.error } : {}) },
  );
}
