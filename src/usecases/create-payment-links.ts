import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { newTxnId } from '../domain/identifiers';
import { formatIstDateTime } from '../domain/ist-time';
import { rupeesToPaise } from '../domain/money';
import { linkExpiryProblem, parseLinkExpireBy, QR_IMG_DEFAULT } from '../domain/payment-link';
import { renderQrPng } from '../domain/qr-png';
import type { Transaction } from '../domain/transaction';
import type { Logger } from '../logger';
import type { Merchant } from '../store/merchant-repository';
import type { PaymentLink, PaymentLinkRepository } from '../store/payment-link-repository';
import { paymentLinkEntrySchema, type PaymentLinkEntry } from '../api/schemas/payment-links';
import { ensurePaymentWorkflow, type StartPaymentDeps } from './start-payment';

export interface CreatePaymentLinksDeps extends StartPaymentDeps {
  paymentLinks: PaymentLinkRepository;
  config: Pick<Config, 'PUBLIC_BASE_URL'>;
  logger: Logger;
}

/** One entry's answer: what was sent, echoed, with its link or what is wrong with it. */
export type PaymentLinkResult = Record<string, unknown> & { link: string | null; qrCode?: string; errorDescription?: string };

/** Entries prepared at once (each is two store writes, and maybe a PNG). */
const CONCURRENCY = 16;

/**
 * Creates a batch of payment links. Each valid entry becomes its order (a Pending transaction whose
 * payer brings the instrument on the link's page; the orderId insert is what makes it unique among
 * every order of the merchant) and a link document keyed by an unguessable token. Each order's
 * payment workflow (open until linkExpireBy, then expired) is started after the answer, so a batch
 * of 500 is answered at once; an order whose start is lost to a crash is started by the pending
 * sweep, and paying a link starts it first if it must.
 */
export async function createPaymentLinks(
  deps: CreatePaymentLinksDeps,
  merchant: Merchant,
  batchId: string,
  entries: unknown[],
  ipAddress: string | null,
): Promise<PaymentLinkResult[]> {
  const now = deps.now();
  if (!(await deps.paymentLinks.claimBatch(merchant.merchantIdentifier, batchId, now))) {
    return entries.map((e) => failed(e, 'batchId: already used for another batch'));
  }
  const results: PaymentLinkResult[] = new Array(entries.length);
  const created: { link: PaymentLink; transaction: Transaction }[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, entries.length) }, async () => {
      while (next < entries.length) {
        const i = next++;
        const outcome = await createOne(deps, merchant, batchId, entries[i], ipAddress, now);
        results[i] = outcome.result;
        if (outcome.created) created.push(outcome.created);
      }
    }),
  );
  await deps.paymentLinks.insert(created.map((c) => c.link));
  void startWorkflows(
    deps,
    created.map((c) => c.transaction),
  );
  return results;
}

async function createOne(
  deps: CreatePaymentLinksDeps,
  merchant: Merchant,
  batchId: string,
  raw: unknown,
  ipAddress: string | null,
  now: Date,
): Promise<{ result: PaymentLinkResult; created?: { link: PaymentLink; transaction: Transaction } }> {
  const parsed = paymentLinkEntrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { result: failed(raw, `${issue.path.join('.') || 'entry'}: ${issue.message}`) };
  }
  const e = parsed.data;
  const amountPaise = rupeesToPaise(e.amount)!;
  const expireBy = parseLinkExpireBy(e.linkExpireBy);
  if (!expireBy) return { result: failed(raw, 'linkExpireBy: no such date or time') };
  const expiryProblem = linkExpiryProblem(expireBy, now);
  if (expiryProblem) return { result: failed(raw, expiryProblem) };

  const { transaction, created } = await deps.transactions.createPending({
    txnId: newTxnId(now),
    merchantIdentifier: merchant.merchantIdentifier,
    orderId: e.orderId,
    amountPaise,
    productDescription: e.productDescription,
    buyerName: null,
    buyerEmail: e.customerEmail ?? null,
    ipAddress,
    instrument: { kind: 'PAYMENT_LINK' },
    payerDeadline: expireBy,
    createdAt: now,
  });
  if (!created) return { result: failed(raw, 'orderId: already used for another order') };

  const token = randomBytes(18).toString('base64url');
  const link = `${deps.config.PUBLIC_BASE_URL}/pl/${token}`;
  const size = e.qrImgSize ?? { width: QR_IMG_DEFAULT, height: QR_IMG_DEFAULT };
  const qrCode = e.showQrImg ? (await renderQrPng(link, size.width, size.height)).toString('base64') : undefined;
  return {
    result: { ...echo(e, expireBy), link, ...(qrCode ? { qrCode } : {}) },
    created: {
      link: {
        _id: token,
        merchantIdentifier: merchant.merchantIdentifier,
        orderId: e.orderId,
        batchId,
        invoiceNumber: e.invoiceNumber ?? null,
        internalNotes: e.internalNotes ?? null,
        customerMobile: e.customerMobile === undefined ? null : String(e.customerMobile),
        createdAt: now,
      },
      transaction,
    },
  };
}

/** A valid entry as the contract echoes it: amount a number, mobile a string, expiry `yyyy-MM-dd HH:mm:ss`. */
function echo(e: PaymentLinkEntry, expireBy: Date): Record<string, unknown> {
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

async function startWorkflows(deps: CreatePaymentLinksDeps, transactions: Transaction[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, transactions.length) }, async () => {
      while (next < transactions.length) {
        const t = transactions[next++]!;
        await ensurePaymentWorkflow(deps, t).catch((err: unknown) =>
          // The pending sweep starts it later; paying the link starts it at once.
          deps.logger.warn({ err, orderId: t.orderId }, 'payment link workflow not started yet'),
        );
      }
    }),
  );
}
