import type { TestGateway } from './gateway';
import { request, type HttpResult } from './http';

export function uploadReconciliation(
  gw: TestGateway,
  csv: string | Buffer,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  return fetch(`${gw.baseUrl}/ops/v1/reconciliations`, {
    method: 'POST',
    body: csv,
    headers: { 'content-type': 'text/csv', authorization: `Bearer ${gw.rt.config.secrets.opsToken}`, ...headers },
  }).then(async (res) => {
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: JSON.parse(text) };
  });
}

/** Uploads a file, waits for its workflow and returns the report as the operator API shows it. */
export async function reconcile(gw: TestGateway, csv: string) {
  const started = await uploadReconciliation(gw, csv);
  if (started.status !== 202) throw new Error(`upload refused: ${started.text}`);
  const id = started.json.data.reconciliationId as string;
  await gw.rt.temporal.workflow.getHandle(`reconciliation:${id}`).result();
  const report = await request(`${gw.baseUrl}/ops/v1/reconciliations/${id}`, {
    headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` },
  });
  return report.json.data as {
    reconciliationId: string;
    state: string;
    rows: number;
    applied: number;
    unchanged: number;
    rejected: { line: number; reason: string }[];
  };
}

export const csvFile = (lines: string[]) => ['txnId,bankRefNum,status,amount', ...lines].join('\n');
