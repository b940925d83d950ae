/**
 * The bank of `npm run chaos -- --bank-faults`: the bank simulator's fault rules for a bank that
 * behaves like a bank (docs/testers/bank-simulator.md), every share drawn from its seeded random
 * source, and what it did (callbacks by kind, inquiries) for the run's table.
 *
 * The faults stay inside what the gateway must absorb with the instruments' outcomes unchanged:
 * late answers come before the gateway's bank timeout (a later one is a delayed success, which the
 * money model covers), and an inquiry answered PENDING is one of a payment the bank has not decided.
 */
export async function setBankFaults(
  bankUrl: string,
  adminToken: string,
  o: { dropShare: number; seed: number },
): Promise<string[]> {
  const post = async (path: string, method: string, body: unknown) => {
    const res = await fetch(`${bankUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`the simulator refused ${method} ${path}: ${res.status} ${await res.text()}`);
  };
  await post('/admin/conduct', 'PUT', { seed: o.seed, share: 0 });
  const rules = [
    {
      match: { operation: ['payment', 'paymentInquiry', 'refund'] },
      fault: { kind: 'drop', afterCommit: true },
      share: o.dropShare,
    },
    { match: { operation: 'payment' }, fault: { kind: 'late', ms: 1500 }, share: 0.3 },
    { match: { operation: ['payment', 'refund'] }, fault: { kind: 'duplicateCallback', copies: 2 }, share: 0.5 },
    { match: { operation: ['payment', 'refund'] }, fault: { kind: 'reorderCallbacks', maxDelayMs: 800 }, share: 0.5 },
    { match: { operation: 'paymentInquiry' }, fault: { kind: 'inquiryPending' }, share: 0.5 },
  ];
  for (const rule of rules) await post('/admin/faults', 'POST', rule);
  return [
    `${o.dropShare * 100}% of connections dropped after committing`,
    '30% of payments answered PENDING and approved or declined by callback 1.5 s later',
    'half the callbacks sent three times, half of them reordered (up to 0.8 s)',
    'half the status inquiries answered PENDING',
  ];
}

interface BooksView {
  payments: { request: { merchantIdentifier: string }; inquiries: number }[];
  callbacks: { reason: string; callback: { type: string; merchantIdentifier?: string } }[];
}

/** What the bank did to the run's merchants: callbacks by reason, and status inquiries. */
export async function bankFaultCounts(
  bankUrl: string,
  adminToken: string,
  merchants: Set<string>,
): Promise<Record<string, number>> {
  const books = (await (
    await fetch(`${bankUrl}/admin/books`, { headers: { authorization: `Bearer ${adminToken}` } })
  ).json()) as BooksView;
  const callbacks = books.callbacks.filter(
    (c) => c.callback.type !== 'payment' || merchants.has(c.callback.merchantIdentifier ?? ''),
  );
  const payments = books.payments.filter((p) => merchants.has(p.request.merchantIdentifier));
  return {
    'bank: callbacks sent (final)': callbacks.filter((c) => c.reason === 'final').length,
    'bank: callbacks sent (duplicates)': callbacks.filter((c) => c.reason === 'duplicate').length,
    'bank: status inquiries': payments.reduce((n, p) => n + p.inquiries, 0),
  };
}
