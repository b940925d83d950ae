import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { cardIdentifier, cardIdKey } from '../../domain/card';
import { checkoutChoices } from '../../domain/checkout';
import { checkoutReturnFields } from '../../domain/checkout-return';
import { formatIstDateTime } from '../../domain/ist-time';
import { formatRupeesGrouped } from '../../domain/money';
import { formatTimeLeft } from '../../domain/payment-link';
import { renderQrPngOffLoop } from '../../qr-render-pool';
import { PaymentResponse } from '../../domain/response-codes';
import type { Transaction } from '../../domain/transaction';
import type { Checkout } from '../../domain/checkout';
import type { Merchant } from '../../domain/merchant';
import type { ApiDeps } from '../deps';
import { hostedPageLimit } from '../middleware/abuse-limits';
import {
  issueFormToken,
  pagePayerInstrument,
  pagePayment,
  readPageForm,
  redirectUrl,
  sameSiteForm,
  sendPage,
} from '../hosted-page';
import { checkoutOpenPage, checkoutResultPage } from '../pages/checkout-page';
import { afterPayment } from './after-payment';
import { messagePage, processingPage, type OrderView, type Outcome } from '../pages/layout';

const CSRF_COOKIE = 'co_csrf';

interface Loaded {
  checkout: Checkout;
  t: Transaction;
  merchant: Merchant;
  view: OrderView;
}

/**
 * The hosted checkout page (design.md, Checkout): GET /checkout/:token shows the order open
 * (its payer's choices), in progress, or final with the signed return to the merchant's returnUrl;
 * POST /checkout/:token/pay takes the payer's instrument and POST /checkout/:token/cancel the
 * payer's cancel, each answered with a redirect back to the page. Payments and cancels go through
 * the order's payment workflow (one payer, or one cancel, ever). The forms are protected like the
 * payment link's: a SameSite=Strict cookie they echo, and the Origin header.
 */
export function checkoutPageRoutes(deps: ApiDeps): Router {
  const router = new Router();
  const kit = checkoutPageKit(deps);
  checkoutRoutes(router, deps, kit);
  return router;
}

/** The checkout's page, paying it and cancelling it. */
function checkoutRoutes(router: Router, deps: ApiDeps, kit: CheckoutPageKit): void {
  const { pathOf, pp, load, show, pageForm, pageLimit } = kit;
  router.get('/checkout/:token', pageLimit, async (ctx) => {
    const loaded = await load(ctx);
    if (loaded) await show(ctx, loaded);
  });

  router.post('/checkout/:token/pay', pageLimit, async (ctx) => {
    const loaded = await load(ctx);
    if (!loaded) return;
    const form = await pageForm(ctx, loaded);
    if (!form) return;
    // Without the sandbox, only a card typed at the bank (http) or a UPI app pays.
    if (!deps.config.sandbox.enabled && !(pp.cardAtBank && form.cardAtBank !== undefined)) {
      return show(ctx, loaded, 'Pay by scanning the UPI QR with your UPI app.');
    }
    const instrument = pagePayerInstrument(form, pp, (pan) => cardIdentifier(pan, cardIdKey(deps.config.secrets.masterKey)));
    if (!instrument.ok) return show(ctx, loaded, `That payment method was not accepted: ${instrument.problem}.`);
    const paid = await deps.useCases.payer.payCheckout(loaded.checkout, instrument.instrument);
    await afterPayment(ctx, deps.useCases.payer, pp, {
      order: loaded.checkout,
      accepted: paid === 'accepted',
      instrument: instrument.instrument,
      pagePath: pathOf(loaded.checkout),
    });
  });

  router.post('/checkout/:token/cancel', pageLimit, async (ctx) => {
    const loaded = await load(ctx);
    if (!loaded || !(await pageForm(ctx, loaded))) return;
    await deps.useCases.payer.cancelCheckout(loaded.checkout);
    ctx.status = 303;
    ctx.redirect(pathOf(loaded.checkout));
  });
}

/** What the checkout's routes share: the checkout loaded, its pages shown, the form read, the page limit. */
function checkoutPageKit(deps: ApiDeps) {
  const pathOf = (c: Checkout) => `/checkout/${c._id}`;
  // BANK_CONNECTOR=http: cards are typed on the bank's page (the payer is sent there and back), never here.
  const pp = pagePayment(deps.config);
  const bankPolicy = { formAction: pp.bankOrigin ? [pp.bankOrigin] : [] };

  async function load(ctx: Context): Promise<Loaded | null> {
    const found = await deps.useCases.payer.hostedCheckout(String((ctx.params as Record<string, string>).token));
    if (!found) {
      sendPage(ctx, 404, messagePage('Checkout not found', 'Go back to the merchant and start the payment again.'));
      return null;
    }
    const { page: checkout, t, merchant } = found;
    return {
      checkout,
      t,
      merchant,
      view: {
        merchantName: merchant.name,
        productDescription: t.productDescription,
        amountText: formatRupeesGrouped(t.amountPaise),
      },
    };
  }

  async function show(ctx: Context, { checkout, t, merchant, view }: Loaded, error?: string): Promise<void> {
    if (t.status !== 'Pending') return showResult(deps, ctx, checkout, t, merchant, view);
    const now = deps.now();
    const deadline = t.payerDeadline ?? now;
    // Expired (its failure is being recorded) or with the bank: the page looks again shortly.
    if (deadline.getTime() <= now.getTime() || !(await deps.useCases.payer.awaitsPayer(checkout))) {
      const redirect = pp.cardAtBank ? await deps.useCases.payer.bankRedirectOf(checkout) : null;
      // The payer may be back from the bank (its return leads here): the page keeps looking.
      const bankUrl = redirect ? { bankUrl: redirectUrl(redirect), refreshSeconds: 5 } : {};
      return sendPage(ctx, 200, processingPage({ ...view, selfPath: pathOf(checkout), ...bankUrl }), bankPolicy);
    }
    const csrf = issueFormToken(ctx, CSRF_COOKIE, pathOf(checkout));
    const intent = deps.useCases.payer.checkoutIntent(merchant, t);
    const qr = (await renderQrPngOffLoop(t.merchantIdentifier, intent, 220, 220)).toString('base64');
    const left = deadline.getTime() - now.getTime();
    const upiCollect = checkout.paymentMode === 'UPI' && checkout.bankid ? { upiId: checkout.bankid } : {};
    const bank = checkout.paymentMode === 'NETBANKING' && checkout.bankid ? { bankCode: checkout.bankid.toUpperCase() } : {};
    sendPage(
      ctx,
      error ? 400 : 200,
      checkoutOpenPage({
        ...view,
        choices: checkoutChoices(checkout.paymentMode),
        qrDataUri: `data:image/png;base64,${qr}`,
        appLink: intent,
        timeLeft: formatTimeLeft(left),
        expiresAt: formatIstDateTime(deadline),
        secondsLeft: Math.ceil(left / 1000),
        payPath: `${pathOf(checkout)}/pay`,
        cancelPath: `${pathOf(checkout)}/cancel`,
        csrf,
        sandbox: deps.config.sandbox.enabled,
        cardAtBank: pp.cardAtBank,
        ...upiCollect,
        ...bank,
        ...(error ? { error } : {}),
      }),
      bankPolicy,
    );
  }

  /** A page's form, from our page: otherwise the page (or a refusal) is answered and null returned. */
  async function pageForm(ctx: Context, loaded: Loaded): Promise<Record<string, string> | null> {
    const form = await readPageForm(ctx, deps.config.http.maxBodyBytes);
    if (!form) {
      await show(ctx, loaded, 'The form could not be read. Please try again.');
      return null;
    }
    if (!sameSiteForm(ctx, CSRF_COOKIE, form.csrf, deps.config.http.publicBaseUrl)) {
      sendPage(ctx, 403, messagePage('Form expired', 'Go back to the merchant and start the payment again.'));
      return null;
    }
    return form;
  }

  const pageLimit = hostedPageLimit(deps.rateLimit, {
    perToken: deps.config.limits.pageRequestsPerTokenPerMinute,
    perAddress: deps.config.limits.pageRequestsPerAddressPerMinute,
  });
  return { pathOf, pp, bankPolicy, load, show, pageForm, pageLimit };
}

type CheckoutPageKit = ReturnType<typeof checkoutPageKit>;

/** What the payer is told of a final order. */
function outcomeOf(t: Transaction): { outcome: Outcome; detail: string } {
  if (t.status !== 'Failure') return { outcome: 'paid', detail: 'Thank you. You are being returned to the merchant.' };
  if (t.responseCode === PaymentResponse.cancelledByPayer.code)
    return { outcome: 'cancelled', detail: 'You cancelled the payment; nothing was charged.' };
  if (t.responseCode === PaymentResponse.qrExpired.code)
    return { outcome: 'expired', detail: 'Nothing was charged. Start the payment again at the merchant.' };
  return { outcome: 'declined', detail: t.responseDescription };
}

/**
 * The final result and the signed return. The first time it is shown, a script submits the
 * return at once (the button does without script); every later showing leaves that to the
 * payer, so a reload or the back button never posts the result twice.
 */
async function showResult(deps: ApiDeps, ctx: Context, checkout: Checkout, t: Transaction, merchant: Merchant, view: OrderView) {
  const first = await deps.useCases.payer.markReturnOffered(checkout._id, deps.now());
  const nonce = first ? randomBytes(16).toString('base64') : undefined;
  sendPage(
    ctx,
    200,
    checkoutResultPage({
      ...view,
      ...outcomeOf(t),
      reference: t.txnId,
      returnUrl: checkout.returnUrl,
      returnFields: checkoutReturnFields(checkout.entry, t, merchant.secretKey),
      ...(nonce ? { autoSubmitNonce: nonce } : {}),
    }),
    // The return may go to any http(s) address (and the merchant's handler may redirect on).
    { formAction: ['http:', 'https:'], ...(nonce ? { scriptNonce: nonce } : {}) },
  );
}
