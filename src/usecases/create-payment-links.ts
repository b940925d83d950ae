import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { newTxnId } from '../domain/identifiers';
import { formatIstDateTime } from '../domain/ist-time';
import { QR_IMG_DEFAULT, type CheckedLinkEntry, type LinkRequest, type RefusedLinkEntry } from '../domain/payment-link';
import { renderQrPng } from '../domain/qr-png';
import type { Logger } from '../logger';
import type { Merchant } from '../store/merchant-repository';
import type { PaymentLink, PaymentLinkRepository } from '../store/payment-link-repository';
import type { NewTransaction } from '../store/transaction-repository';
import { ensurePaymentWorkflow, type StartPaymentDeps } from './start-payment';

export interface CreatePaymentLinksDeps extends StartPaymentDeps {
  paymentLinks: PaymentLinkRepository;
  config: Pick<Config, 'PUBLIC_BASE_URL'>;
  logger: Logger;
}

/** One entry's answer: what was sent, echoed, with its link or what is wrong with it. */
export type PaymentLinkResult = Record<string, unknown> & { link: string | null; qrCode?: string; errorDescription?: string };

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
 */
export async function createPaymentLinks(
  deps: CreatePaymentLinksDeps,
  merchant: Merchant,
  batchId: string,
  entries: (Checked | RefusedLinkEntry)[],
  ipAddress: string | null,
): Promise<PaymentLinkResult[]> {
  const now = deps.now();
  if (!(await deps.paymentLinks.claimBatch(merchant.merchantIdentifier, batchId, now))) {
    return entries.map((e) => failed(e.raw, 'batchId: already used for another batch'));
  }
  // Each entry is checked on its own; an orderId given twice in the batch goes to its first entry.
  const seen = new Set<string>();
  const checked = entries.map((c) => {
    if ('problem' in c) return c;
    if (seen.has(c.entry.orderId)) return { raw: c.raw, problem: ORDER_TAKEN };
    seen.add(c.entry.orderId);
    return c;
  });
  const valid = checked.filter((c): c is Checked => !('problem' in c));
  const orders = valid.map((c) => newOrder(merchant, c, ipAddress, now));
  const created = await deps.transactions.createPendingMany(orders);

  const links: PaymentLink[] = [];
  const answers = new Map<Checked, PaymentLinkResult>();
  for (const [i, c] of valid.entries()) {
    if (!created[i]) {
      answers.set(c, failed(c.raw, ORDER_TAKEN));
      continue;
    }
    const token = randomBytes(18).toString('base64url');
    const link = `${deps.config.PUBLIC_BASE_URL}/pl/${token}`;
    const size = c.entry.qrImgSize ?? { width: QR_IMG_DEFAULT, height: QR_IMG_DEFAULT };
    const qrCode = c.entry.showQrImg ? (await renderQrPng(link, size.width, size.height)).toString('base64') : undefined;
    answers.set(c, { ...echo(c.entry, c.expireBy), link, ...(qrCode ? { qrCode } : {}) });
    links.push({
      _id: token,
      merchantIdentifier: merchant.merchantIdentifier,
      orderId: c.entry.orderId,
      batchId,
      invoiceNumber: c.entry.invoiceNumber ?? null,
      internalNotes: c.entry.internalNotes ?? null,
      customerMobile: c.entry.customerMobile === undefined ? null : String(c.entry.customerMobile),
      createdAt: now,
    });
  }
  await deps.paymentLinks.insert(links);
  void startWorkflows(
    deps,
    orders.filter((_, i) => created[i]),
  );
  return checked.map((c) => ('problem' in c ? failed(c.raw, c.problem) : answers.get(c)!));
}

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
        const t = pending[next++]!;
        await ensurePaymentWorkflow(deps, t).catch((err: unknown) =>
          // The pending sweep starts it later; paying the link starts it at once.
          deps.logger.warn({ err, orderId: t.orderId }, 'payment link workflow not started yet'),
        );
      }
    }),
  );
}
