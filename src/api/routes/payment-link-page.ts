import { randomBytes, timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../../domain/api-errors';
import { cardIdentifier } from '../../domain/card';
import { formatIstDateTime } from '../../domain/ist-time';
import { paiseToRupees } from '../../domain/money';
import { formatTimeLeft } from '../../domain/payment-link';
import { renderQrPng } from '../../domain/qr-png';
import { PaymentResponse } from '../../domain/response-codes';
import { sandboxInstrument } from '../../domain/sandbox-bank';
import type { Transaction } from '../../domain/transaction';
import { upiIntentUrl } from '../../domain/upi-intent';
import type { PaymentLink } from '../../store/payment-link-repository';
import type { BankRedirect } from '../../../activities/bank-connector';
import { cardAtBank as cardAtBankInstrument } from '../../bank/card-at-bank';
import { bankRedirectQuery, paymentStageQuery } from '../../temporal/payment-messages';
import { paymentWorkflowId } from '../../temporal/workflow-ids';
import { payLink } from '../../usecases/pay-link';
import { startPaymentDeps } from '../../usecases/start-payment';
import type { ApiDeps } from '../deps';
import { readRawBody } from '../middleware/body';
import { parseFormBody } from '../middleware/form-body';
import { bankFormPage, messagePage, openPage, processingPage, resultPage, type LinkView } from '../pages/payment-link-page';

const TOKEN = /^[A-Za-z0-9_-]{24}$/;
const CSRF_COOKIE = 'pl_csrf';
const rupees = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/**
 * The hosted payment page of a link: GET /pl/:token shows it (open, in progress, paid, declined or
 * expired, with the matching HTTP status); POST /pl/:token/pay takes the sandbox payer's instrument
 * and answers with a redirect back to the page (or the page with the error). The form is protected
 * against cross-site posts by a SameSite=Strict cookie it must echo and by the Origin header.
 */
export function paymentLinkPageRoutes(deps: ApiDeps): Router {
  const router = new Router();
  // BANK_CONNECTOR=http: cards are typed on the bank's page (the payer is sent there and back), never here.
  const cardAtBank = deps.config.BANK_CONNECTOR === 'http';
  const bankOrigin = cardAtBank && deps.config.BANK_BASE_URL ? new URL(deps.config.BANK_BASE_URL).origin : null;

  async function load(ctx: Context): Promise<{ link: PaymentLink; t: Transaction; view: LinkView } | null> {
    const token = String(ctx.params.token);
    const link = TOKEN.test(token) ? await deps.paymentLinks.findByToken(token) : null;
    const [t, merchant] = link
      ? await Promise.all([deps.transactions.findByOrder(link), deps.merchants.findById(link.merchantIdentifier)])
      : [null, null];
    if (!link || !t || !merchant) {
      html(ctx, 404, messagePage('Payment link not found', 'Check the address, or ask the merchant for a new link.'));
      return null;
    }
    const view = {
      merchantName: merchant.name,
      productDescription: t.productDescription,
      invoiceNumber: link.invoiceNumber,
      amountText: rupees.format(paiseToRupees(t.amountPaise)),
    };
    return { link, t, view };
  }

  async function show(ctx: Context, link: PaymentLink, t: Transaction, view: LinkView, error?: string) {
    const selfPath = `/pl/${link._id}`;
    if (t.status === 'Failure') {
      if (t.responseCode === PaymentResponse.qrExpired.code) return expired(ctx, view);
      return html(ctx, 200, resultPage({ ...view, outcome: 'declined', detail: t.responseDescription, reference: t.txnId }));
    }
    if (t.status !== 'Pending') {
      return html(
        ctx,
        200,
        resultPage({ ...view, outcome: 'paid', detail: 'Thank you. You may close this page.', reference: t.txnId }),
      );
    }
    const deadline = t.payerDeadline ?? deps.now();
    if (deadline.getTime() <= deps.now().getTime()) return expired(ctx, view);
    if ((await stageOf(link)) !== 'awaiting-payer') {
      const redirect = cardAtBank ? await bankRedirectOf(link) : null;
      return html(
        ctx,
        200,
        processingPage({ ...view, selfPath, ...(redirect ? { bankUrl: redirectUrl(redirect) } : {}) }),
        bankOrigin,
      );
    }

    const csrf = randomBytes(18).toString('base64url');
    ctx.cookies.set(CSRF_COOKIE, csrf, { httpOnly: true, sameSite: 'strict', path: selfPath, overwrite: true });
    const intent = upiIntentUrl({
      payeeVpa: deps.config.UPI_PAYEE_VPA,
      payeeName: view.merchantName,
      amountPaise: t.amountPaise,
      txnId: t.txnId,
      note: t.productDescription,
      merchantCategoryCode: deps.config.UPI_MERCHANT_CATEGORY_CODE,
    });
    const qr = (await renderQrPng(intent, 220, 220)).toString('base64');
    html(
      ctx,
      error ? 400 : 200,
      openPage({
        ...view,
        qrDataUri: `data:image/png;base64,${qr}`,
        timeLeft: formatTimeLeft(deadline.getTime() - deps.now().getTime()),
        expiresAt: formatIstDateTime(deadline),
        payPath: `${selfPath}/pay`,
        csrf,
        cardAtBank,
        ...(error ? { error } : {}),
      }),
      bankOrigin,
    );
  }

  /** The bank page the payer must visit, once the order's workflow has it (card and net banking over http). */
  async function bankRedirectOf(link: PaymentLink): Promise<BankRedirect | null> {
    try {
      return await deps.temporal.workflow
        .getHandle(paymentWorkflowId(link.merchantIdentifier, link.orderId))
        .query(bankRedirectQuery);
    } catch (e) {
      if ((e as Error).name === 'WorkflowNotFoundError' || (e as Error).name === 'QueryNotRegisteredError') return null;
      throw e;
    }
  }

  /** Waits a moment for the workflow to hear the bank's REDIRECT (it asks the bank right after taking the payer). */
  async function awaitBankRedirect(link: PaymentLink): Promise<BankRedirect | null> {
    for (let waited = 0; waited < 5_000; waited += 100) {
      const redirect = await bankRedirectOf(link);
      if (redirect) return redirect;
      const t = await deps.transactions.findByOrder(link);
      if (!t || t.status !== 'Pending') return null;
      await new Promise((r) => setTimeout(r, 100));
    }
    return null;
  }

  /** Where the link's workflow is; a workflow not started yet is waiting for its payer all the same. */
  async function stageOf(link: PaymentLink): Promise<string> {
    try {
      return await deps.temporal.workflow
        .getHandle(paymentWorkflowId(link.merchantIdentifier, link.orderId))
        .query(paymentStageQuery);
    } catch (e) {
      if ((e as Error).name === 'WorkflowNotFoundError') return 'awaiting-payer';
      throw e;
    }
  }

  function expired(ctx: Context, view: LinkView) {
    html(ctx, 410, resultPage({ ...view, outcome: 'expired', detail: 'Ask the merchant for a new payment link.' }));
  }

  router.get('/pl/:token', async (ctx) => {
    const found = await load(ctx);
    if (found) await show(ctx, found.link, found.t, found.view);
  });

  router.post('/pl/:token/pay', async (ctx) => {
    const found = await load(ctx);
    if (!found) return;
    const { link, t, view } = found;
    let form: Record<string, string>;
    try {
      form = parseFormBody(await readRawBody(ctx, 'application/x-www-form-urlencoded', deps.config.MAX_BODY_BYTES));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return show(ctx, link, t, view, 'The form could not be read. Please try again.');
    }
    if (!sameSiteForm(ctx, form.csrf)) {
      return html(ctx, 403, messagePage('Form expired', 'Open the payment link again and pay from its page.'));
    }
    if (cardAtBank && form.cardNumber !== undefined) {
      return show(ctx, link, t, view, "That payment method was not accepted: card numbers are entered on your bank's page.");
    }
    const choice =
      form.payerVpa !== undefined
        ? { payerVpa: form.payerVpa.trim() }
        : form.cardNumber !== undefined
          ? { cardNumber: form.cardNumber.replace(/\s+/g, '') }
          : form.bankCode !== undefined
            ? { bankCode: form.bankCode }
            : {};
    const instrument =
      cardAtBank && form.cardAtBank !== undefined
        ? ({ ok: true, instrument: cardAtBankInstrument() } as const)
        : sandboxInstrument(choice, (pan) => cardIdentifier(pan, deps.config.MASTER_KEY));
    if (!instrument.ok) return show(ctx, link, t, view, `That payment method was not accepted: ${instrument.problem}.`);
    const paid = await payLink(startPaymentDeps(deps), link, instrument.instrument);
    const redirect =
      paid === 'accepted' && cardAtBank && ['CARD', 'NETBANKING'].includes(instrument.instrument.kind)
        ? await awaitBankRedirect(link)
        : null;
    if (redirect?.method === 'POST') return html(ctx, 200, bankFormPage(redirect), bankOrigin);
    ctx.status = 303;
    // To the bank's page (it sends the payer back to the gateway), or back here: paid, already paid
    // by someone else, or expired meanwhile, the page says which.
    ctx.redirect(redirect ? redirectUrl(redirect) : `/pl/${link._id}`);
  });
  return router;
}

/** The form came from our page: the Strict cookie it was served with is echoed, and no other origin posted it. */
function sameSiteForm(ctx: Context, echoed: string | undefined): boolean {
  const origin = ctx.get('origin'); // 'null' (an opaque origin) never matches
  if (origin && origin !== `${ctx.protocol}://${ctx.host}`) return false;
  const cookie = ctx.cookies.get(CSRF_COOKIE);
  if (!cookie || !echoed || cookie.length !== echoed.length) return false;
  return timingSafeEqual(Buffer.from(cookie), Buffer.from(echoed));
}

/** The bank's page as one address: a GET redirect's fields go in its query (the protocol's banks use GET pages). */
function redirectUrl(r: BankRedirect): string {
  const url = new URL(r.url);
  for (const [k, v] of Object.entries(r.fields)) url.searchParams.set(k, v);
  return url.toString();
}

/** `bankOrigin`: the pay form may lead on to the bank's page (browsers apply form-action to the redirect too). */
function html(ctx: Context, status: number, page: string, bankOrigin: string | null = null) {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'self'${bankOrigin ? ` ${bankOrigin}` : ''}; frame-ancestors 'none'`,
  );
  ctx.body = page;
}
