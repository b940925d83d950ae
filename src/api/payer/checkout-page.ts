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
import { formFromPage, newFormToken, pagePayerInstrument, pagePayment, redirectUrl } from '../hosted-page';
import { HtmlPage, perApp, Redirect, type DeclaredOperation } from '../operation';
import { WithCookies } from '../operation-browser';
import { checkoutOpenPage, checkoutResultPage } from '../pages/checkout-page';
import { afterPayment } from './after-payment';
import { messagePage, processingPage, type OrderView, type Outcome } from '../pages/layout';
import { payerPage, type PageRequest } from './page-operation';

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
export const checkoutPageOperations: readonly DeclaredOperation[] = [
  payerPage({
    method: 'get',
    path: '/checkout/:token',
    async handle(request, deps) {
      const { load, show } = kitOf(deps);
      const loaded = await load(request);
      return loaded instanceof HtmlPage ? loaded : show(request, loaded);
    },
  }),
  payerPage({ method: 'post', path: '/checkout/:token/pay', handle: payCheckout }),
  payerPage({
    method: 'post',
    path: '/checkout/:token/cancel',
    async handle(request, deps) {
      const { load, pageForm, pathOf } = kitOf(deps);
      const loaded = await load(request);
      if (loaded instanceof HtmlPage) return loaded;
      const form = await pageForm(request, loaded);
      if (!isForm(form)) return form;
      await deps.useCases.payer.cancelCheckout(loaded.checkout);
      return new Redirect(pathOf(loaded.checkout));
    },
  }),
];

/** The checkout's pay form: the payer's instrument, then the bank's page or back to the page. */
async function payCheckout(request: PageRequest, deps: ApiDeps): Promise<unknown> {
  const { pp, load, show, pageForm, pathOf } = kitOf(deps);
  const loaded = await load(request);
  if (loaded instanceof HtmlPage) return loaded;
  const form = await pageForm(request, loaded);
  if (!isForm(form)) return form;
  // Without the sandbox, only a card typed at the bank (http) or a UPI app pays.
  if (!deps.config.sandbox.enabled && !(pp.cardAtBank && form.cardAtBank !== undefined)) {
    return show(request, loaded, 'Pay by scanning the UPI QR with your UPI app.');
  }
  const instrument = pagePayerInstrument(form, pp, (pan) => cardIdentifier(pan, cardIdKey(deps.config.secrets.masterKey)));
  if (!instrument.ok) return show(request, loaded, `That payment method was not accepted: ${instrument.problem}.`);
  const paid = await deps.useCases.payer.payCheckout(loaded.checkout, instrument.instrument);
  return afterPayment(deps.useCases.payer, pp, {
    order: loaded.checkout,
    accepted: paid === 'accepted',
    instrument: instrument.instrument,
    pagePath: pathOf(loaded.checkout),
  });
}

/** A form read and from our page, as opposed to the answer that refuses it. */
const isForm = (form: Record<string, string> | HtmlPage | WithCookies): form is Record<string, string> =>
  !(form instanceof HtmlPage) && !(form instanceof WithCookies);

/** What the checkout's operations share: the checkout loaded, its pages shown, the form read (built once per app). */
const kitOf = perApp(function checkoutPageKit(deps: ApiDeps) {
  const pathOf = (c: Checkout) => `/checkout/${c._id}`;
  // BANK_CONNECTOR=http: cards are typed on the bank's page (the payer is sent there and back), never here.
  const pp = pagePayment(deps.config);
  const bankPolicy = { formAction: pp.bankOrigin ? [pp.bankOrigin] : [] };

  async function load(request: PageRequest): Promise<Loaded | HtmlPage> {
    const found = await deps.useCases.payer.hostedCheckout(request.caller);
    if (!found)
      return new HtmlPage(404, messagePage('Checkout not found', 'Go back to the merchant and start the payment again.'));
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

  async function show(
    request: PageRequest,
    { checkout, t, merchant, view }: Loaded,
    error?: string,
  ): Promise<HtmlPage | WithCookies> {
    if (t.status !== 'Pending') return showResult(deps, request, checkout, t, merchant, view);
    const now = deps.now();
    const deadline = t.payerDeadline ?? now;
    // Expired (its failure is being recorded) or with the bank: the page looks again shortly.
    if (deadline.getTime() <= now.getTime() || !(await deps.useCases.payer.awaitsPayer(checkout))) {
      const redirect = pp.cardAtBank ? await deps.useCases.payer.bankRedirectOf(checkout) : null;
      // The payer may be back from the bank (its return leads here): the page keeps looking.
      const bankUrl = redirect ? { bankUrl: redirectUrl(redirect), refreshSeconds: 5 } : {};
      return new HtmlPage(200, processingPage({ ...view, selfPath: pathOf(checkout), ...bankUrl }), {}, bankPolicy);
    }
    const csrf = newFormToken(CSRF_COOKIE, pathOf(checkout));
    const intent = deps.useCases.payer.checkoutIntent(merchant, t);
    const qr = (await renderQrPngOffLoop(t.merchantIdentifier, intent, 220, 220)).toString('base64');
    const left = deadline.getTime() - now.getTime();
    const upiCollect = checkout.paymentMode === 'UPI' && checkout.bankid ? { upiId: checkout.bankid } : {};
    const bank = checkout.paymentMode === 'NETBANKING' && checkout.bankid ? { bankCode: checkout.bankid.toUpperCase() } : {};
    const page = checkoutOpenPage({
      ...view,
      choices: checkoutChoices(checkout.paymentMode),
      qrDataUri: `data:image/png;base64,${qr}`,
      appLink: intent,
      timeLeft: formatTimeLeft(left),
      expiresAt: formatIstDateTime(deadline),
      secondsLeft: Math.ceil(left / 1000),
      payPath: `${pathOf(checkout)}/pay`,
      cancelPath: `${pathOf(checkout)}/cancel`,
      csrf: csrf.token,
      sandbox: deps.config.sandbox.enabled,
      cardAtBank: pp.cardAtBank,
      ...upiCollect,
      ...bank,
      ...(error ? { error } : {}),
    });
    return new WithCookies(new HtmlPage(error ? 400 : 200, page, {}, bankPolicy), [csrf.cookie]);
  }

  /** A page's form, from our page: otherwise the page (or a refusal) to answer. */
  async function pageForm(request: PageRequest, loaded: Loaded): Promise<Record<string, string> | HtmlPage | WithCookies> {
    const form = request.body;
    if (!form) return show(request, loaded, 'The form could not be read. Please try again.');
    if (!formFromPage(request.browser, CSRF_COOKIE, form.csrf)) {
      return new HtmlPage(403, messagePage('Form expired', 'Go back to the merchant and start the payment again.'));
    }
    return form;
  }

  return { pathOf, pp, bankPolicy, load, show, pageForm };
});

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
async function showResult(
  deps: ApiDeps,
  request: PageRequest,
  checkout: Checkout,
  t: Transaction,
  merchant: Merchant,
  view: OrderView,
): Promise<HtmlPage> {
  const first = await deps.useCases.payer.markReturnOffered(checkout._id, deps.now());
  const nonce = first ? request.browser.nonce() : undefined;
  return new HtmlPage(
    200,
    checkoutResultPage({
      ...view,
      ...outcomeOf(t),
      reference: t.txnId,
      returnUrl: checkout.returnUrl,
      returnFields: checkoutReturnFields(checkout.entry, t, merchant.secretKey),
      ...(nonce ? { autoSubmitNonce: nonce } : {}),
    }),
    {},
    // The return may go to any http(s) address (and the merchant's handler may redirect on).
    { formAction: ['http:', 'https:'], ...(nonce ? { scriptNonce: nonce } : {}) },
  );
}
