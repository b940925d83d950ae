import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { newTxnId } from '../domain/identifiers';
import { formatIstDateTime } from '../domain/ist-time';
import {
  linkQrImageSize,
  type CheckedLinkEntry,
  type LinkRequest,
  type PaymentLinkResult,
  type RefusedLinkEntry,
} from '../domain/payment-link';
import { renderQrPngOffLoop } from '../qr-render-pool';
import type { Logger } from '../logger';
import type { Merchant } from '../domain/merchant';
import type { PaymentLink } from '../domain/payment-link';
import type { PaymentLinkRepository, PlannedLinkEntry } from '../store/payment-link-repository';
import type { NewTransaction } from '../store/transaction-repository';
import { ensurePaymentWorkflow, type StartPaymentDeps } from './start-payment';

export interface CreatePaymentLinksDeps extends StartPaymentDeps {
  paymentLinks: PaymentLinkRepository;
  config: { http: Pick<Config['http'], 'publicBaseUrl'> };
  logger: Logger;
}

export type { PaymentLinkResult };

/** Workflow starts in flight at once. */
const CONCURRENCY = 16;
const ORDER_TAKEN = 'orderId: already used for another order';

type Checked = CheckedLinkEntry;

/**
 * Creates a batch of payment links from entries the API checked one by one. Each valid entry becomes its order (a Pending transaction whose
 * payer brings the instrument on the link's page; inserting the orderId is what makes it unique
 * among every order of the merchant) and a link document keyed by an unguessable token: one
 * unordered insert for all the orders, one for all the links. Each order's payment workflow (open
 * until linkExpireBy, then expired) is started after the answer, so a batch of 500 is answered at
 * once; a start lost to a crash is made by the pending sweep, and paying a link starts it first.
 *
 * The batch id is claimed together with the plan of every entry (its order with its txnId, its
 * token), before anything else is written. Every later step is idempotent and follows the plan, so
 * the same request again (after a failed insert, a lost answer, a crash) completes what is missing
 * and answers exactly as a clean run; the same batch id with another request refuses every entry.
 */
export async function createPaymentLinks(
  deps: CreatePaymentLinksDeps,
  merchant: Merchant,
  batchId: string,
  entries: (Checked | RefusedLinkEntry)[],
  ipAddress: string | null,
): Promise<PaymentLinkResult[]> {
  const now = deps.now();
  const requestHash = createHash('sha256')
    .update(JSON.stringify(entries.map((e) => e.raw)))
    .digest('hex');
  const batch = await deps.paymentLinks.claimBatch(
    merchant.merchantIdentifier,
    batchId,
    { requestHash, entries: plan(merchant, batchId, entries, ipAddress, now) },
    now,
  );
  if (batch?.requestHash !== requestHash) {
    return entries.map((e) => failed(e.raw, 'batchId: already used for another batch'));
  }
  const planned = batch.entries;

  const valid = planned.flatMap((p) => ('order' in p ? [p] : []));
  const created = await deps.transactions.createPendingMany(valid.map((p) => p.order));
  // An order that exists already is this batch's when it carries the planned txnId (an earlier try
  // created it); otherwise its orderId was taken by another order.
  const stored = await Promise.all(valid.map(async (p, i) => (created[i] ? null : deps.transactions.findByOrder(p.order))));
  const ours = valid.filter((p, i) => created[i] || stored[i]?.txnId === p.order.txnId);
  await deps.paymentLinks.insert(ours.map((p) => p.link));

  // The images render in the worker pool, all of the batch queued at once (the route kept the
  // batch within QR_PIXEL_BUDGET).
  const answers = new Map<PlannedLinkEntry, PaymentLinkResult>();
  await Promise.all(
    ours.map(async (p) => {
      const link = linkUrl(deps, p.link._id);
      const qrCode = p.qrImgSize
        ? (await renderQrPngOffLoop(merchant.merchantIdentifier, link, p.qrImgSize.width, p.qrImgSize.height)).toString('base64')
        : undefined;
      answers.set(p, { ...p.echo, link, ...(qrCode ? { qrCode } : {}) });
    }),
  );
  // Only orders still open need their workflow (a retry may find some paid or expired already).
  const open = valid.filter((p, i) => answers.has(p) && (created[i] || stored[i]?.status === 'Pending'));
  void startWorkflows(
    deps,
    open.map((p) => p.order),
  );
  return planned.map((p, i) =>
    'problem' in p ? failed(entries[i].raw, p.problem) : (answers.get(p) ?? failed(entries[i].raw, ORDER_TAKEN)),
  );
}

/** What each entry becomes: refused with its problem, or its order and link (with a new token). */
function plan(
  merchant: Merchant,
  batchId: string,
  entries: (Checked | RefusedLinkEntry)[],
  ipAddress: string | null,
  now: Date,
): PlannedLinkEntry[] {
  // Each entry is checked on its own; an orderId given twice in the batch goes to its first entry.
  const seen = new Set<string>();
  return entries.map((c) => {
    if ('problem' in c) return { problem: c.problem };
    if (seen.has(c.entry.orderId)) return { problem: ORDER_TAKEN };
    seen.add(c.entry.orderId);
    const link: PaymentLink = {
      _id: randomBytes(18).toString('base64url'),
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: c.entry.orderId,
      batchId,
      invoiceNumber: c.entry.invoiceNumber ?? null,
      internalNotes: c.entry.internalNotes ?? null,
      customerMobile: c.entry.customerMobile === undefined ? null : String(c.entry.customerMobile),
      createdAt: now,
    };
    return {
      order: newOrder(merchant, c, ipAddress, now),
      link,
      echo: echo(c.entry, c.expireBy),
      qrImgSize: linkQrImageSize(c.entry),
    };
  });
}

/** The address of a link's page, which the payer opens. */
export const linkUrl = (deps: { config: { http: Pick<Config['http'], 'publicBaseUrl'> } }, token: string) =>
  `${deps.config.http.publicBaseUrl}/pl/${token}`;

/** The link's order: Pending, its payer bringing the instrument on the link's page until linkExpireBy. */
function newOrder(merchant: Merchant, c: Checked, ipAddress: string | null, now: Date): NewTransaction {
  return {
    txnId: newTxnId(now),
    merchantIdentifier: merchant.merchantIdentifier,
    orderId: c.entry.orderId,
    amountPaise: c.amountPaise,
    productDescription: c.entry.productDescription,
    buyerName: null,
    buyerEmail: c.entry.customerEmail ?? null,
    ipAddress,
    instrument: { kind: 'PAYMENT_LINK' },
    channel: 'link',
    payerDeadline: c.expireBy,
    createdAt: now,
  };
}

/** A valid entry as the contract echoes it: amount a number, mobile a string, expiry `yyyy-MM-dd HH:mm:ss`. */
function echo(e: LinkRequest, expireBy: Date): Record<string, unknown> {
  return {
    ...e,
    ...(e.customerMobile !== undefined ? { customerMobile: String(e.customerMobile) } : {}),
    linkExpireBy: formatIstDateTime(expireBy),
  };
}

/** A refused entry: what was sent (when it was an object), `link: null` and the reason. */
function failed(raw: unknown, errorDescription: string): PaymentLinkResult {
  const sent = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  return { ...sent, link: null, errorDescription };
}

async function startWorkflows(deps: CreatePaymentLinksDeps, pending: NewTransaction[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, pending.length) }, async () => {
      while (next < pending.length) {
        const t = pending[next++];
        await ensurePaymentWorkflow(deps, t).catch((err: unknown) =>
          // The pending sweep starts it later; paying the link starts it at once.
          deps.logger.warn({ err, orderId: t.orderId }, 'payment link workflow not started yet'),
        );
      }
    }),
  );
}
