import Router from '@koa/router';
import type { Context } from 'koa';
import { cardIdentifier, cardIdKey } from '../../domain/card';
import { formatIstDateTime } from '../../domain/ist-time';
import { formatRupeesGrouped } from '../../domain/money';
import { formatTimeLeft } from '../../domain/payment-link';
import { renderQrPngOffLoop } from '../../qr-render-pool';
import { PaymentResponse } from '../../domain/response-codes';
import type { Transaction } from '../../domain/transaction';
import { upiIntentUrl } from '../../domain/upi-intent';
import type { PaymentLink } from '../../domain/payment-link';
import type { ApiDeps } from '../deps';
import {
  issueFormToken,
  pagePayerInstrument,
  pagePayment,
  readPageForm,
  redirectUrl,
  sameSiteForm,
  sendPage,
} from '../hosted-page';
import { hostedPageLimit } from '../middleware/abuse-limits';
import { messagePage, openPage, processingPage, resultPage, type LinkView } from '../pages/payment-link-page';
import { afterPayment } from './after-payment';

const CSRF_COOKIE = 'pl_csrf';

/**
 * The hosted payment page of a link: GET /pl/:token shows it (open, in progress, paid, declined or
 * expired, with the matching HTTP status); POST /pl/:token/pay takes the sandbox payer's instrument
 * and answers with a redirect back to the page (or the page with the error). The form is protected
 * against cross-site posts by a SameSite=Strict cookie it must echo and by the Origin header.
 */
export function paymentLinkPageRoutes(deps: ApiDeps): Router {
  const router = new Router();
  const kit = paymentLinkPageKit(deps);
  paymentLinkRoutes(router, deps, kit);
  return router;
}

/** The link's page, and paying it. */
function paymentLinkRoutes(router: Router, deps: ApiDeps, kit: PaymentLinkPageKit): void {
  const { pp, html, load, show, pageLimit } = kit;
  router.get('/pl/:token', pageLimit, async (ctx) => {
    const found = await load(ctx);
    if (found) await show(ctx, found.link, found.t, found.view);
  });

  router.post('/pl/:token/pay', pageLimit, async (ctx) => {
    const found = await load(ctx);
    if (!found) return;
    const { link, t, view } = found;
    const form = await readPageForm(ctx, deps.config.http.maxBodyBytes);
    if (!form) return show(ctx, link, t, view, 'The form could not be read. Please try again.');
    if (!sameSiteForm(ctx, CSRF_COOKIE, form.csrf, deps.config.http.publicBaseUrl)) {
      return html(ctx, 403, messagePage('Form expired', 'Open the payment link again and pay from its page.'));
    }
    const instrument = pagePayerInstrument(form, pp, (pan) => cardIdentifier(pan, cardIdKey(deps.config.secrets.masterKey)));
    if (!instrument.ok) return show(ctx, link, t, view, `That payment method was not accepted: ${instrument.problem}.`);
    const paid = await deps.useCases.payer.payLink(link, instrument.instrument);
    await afterPayment(ctx, deps.useCases.payer, pp, {
      order: link,
      accepted: paid === 'accepted',
      instrument: instrument.instrument,
      pagePath: `/pl/${link._id}`,
    });
  });
}

/** What the payment link's routes share: the link loaded, its page shown, the page limit. */
function paymentLinkPageKit(deps: ApiDeps) {
  // BANK_CONNECTOR=http: cards are typed on the bank's page (the payer is sent there and back), never here.
  const pp = pagePayment(deps.config);
  const html = (ctx: Context, status: number, page: string) =>
    sendPage(ctx, status, page, { formAction: pp.bankOrigin ? [pp.bankOrigin] : [] });

  async function load(ctx: Context): Promise<{ link: PaymentLink; t: Transaction; view: LinkView } | null> {
    const found = await deps.useCases.payer.hostedPaymentLink(String((ctx.params as Record<string, string>).token));
    if (!found) {
      html(ctx, 404, messagePage('Payment link not found', 'Check the address, or ask the merchant for a new link.'));
      return null;
    }
    const { page: link, t, merchant } = found;
    const view = {
      merchantName: merchant.name,
      productDescription: t.productDescription,
      invoiceNumber: link.invoiceNumber,
      amountText: formatRupeesGrouped(t.amountPaise),
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
    if (!(await deps.useCases.payer.awaitsPayer(link))) {
      const redirect = pp.cardAtBank ? await deps.useCases.payer.bankRedirectOf(link) : null;
      return html(ctx, 200, processingPage({ ...view, selfPath, ...(redirect ? { bankUrl: redirectUrl(redirect) } : {}) }));
    }

    const csrf = issueFormToken(ctx, CSRF_COOKIE, selfPath);
    const intent = upiIntentUrl({
      payeeVpa: deps.config.upi.payeeVpa,
      payeeName: view.merchantName,
      amountPaise: t.amountPaise,
      txnId: t.txnId,
      note: t.productDescription,
      merchantCategoryCode: deps.config.upi.merchantCategoryCode,
    });
    const qr = (await renderQrPngOffLoop(link.merchantIdentifier, intent, 220, 220)).toString('base64');
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
        cardAtBank: pp.cardAtBank,
        sandbox: pp.sandbox,
        ...(error ? { error } : {}),
      }),
    );
  }

  function expired(ctx: Context, view: LinkView) {
    html(ctx, 410, resultPage({ ...view, outcome: 'expired', detail: 'Ask the merchant for a new payment link.' }));
  }

  const pageLimit = hostedPageLimit(deps.rateLimit, {
    perToken: deps.config.limits.pageRequestsPerTokenPerMinute,
    perAddress: deps.config.limits.pageRequestsPerAddressPerMinute,
  });
  return { pp, html, load, show, expired, pageLimit };
}

type PaymentLinkPageKit = ReturnType<typeof paymentLinkPageKit>;
