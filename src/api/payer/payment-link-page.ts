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
import { formFromPage, newFormToken, pagePayerInstrument, pagePayment, redirectUrl } from '../hosted-page';
import { HtmlPage, perApp, type DeclaredOperation } from '../operation';
import { WithCookies } from '../operation-browser';
import { messagePage, openPage, processingPage, resultPage, type LinkView } from '../pages/payment-link-page';
import { afterPayment } from './after-payment';
import { payerPage, type PageRequest } from './page-operation';

const CSRF_COOKIE = 'pl_csrf';

interface Loaded {
  link: PaymentLink;
  t: Transaction;
  view: LinkView;
}

/**
 * The hosted payment page of a link: GET /pl/:token shows it (open, in progress, paid, declined or
 * expired, with the matching HTTP status); POST /pl/:token/pay takes the sandbox payer's instrument
 * and answers with a redirect back to the page (or the page with the error). The form is protected
 * against cross-site posts by a SameSite=Strict cookie it must echo and by the Origin header.
 */
export const paymentLinkPageOperations: readonly DeclaredOperation[] = [
  payerPage({
    method: 'get',
    path: '/pl/:token',
    async handle(request, deps) {
      const { load, show } = kitOf(deps);
      const found = await load(request);
      return found instanceof HtmlPage ? found : show(found);
    },
  }),
  payerPage({ method: 'post', path: '/pl/:token/pay', handle: payLink }),
];

/** The link's pay form: the payer's instrument, then the bank's page or back to the page. */
async function payLink(request: PageRequest, deps: ApiDeps): Promise<unknown> {
  const { pp, page, load, show } = kitOf(deps);
  const found = await load(request);
  if (found instanceof HtmlPage) return found;
  const form = request.body;
  if (!form) return show(found, 'The form could not be read. Please try again.');
  if (!formFromPage(request.browser, CSRF_COOKIE, form.csrf)) {
    return page(403, messagePage('Form expired', 'Open the payment link again and pay from its page.'));
  }
  const instrument = pagePayerInstrument(form, pp, (pan) => cardIdentifier(pan, cardIdKey(deps.config.secrets.masterKey)));
  if (!instrument.ok) return show(found, `That payment method was not accepted: ${instrument.problem}.`);
  const paid = await deps.useCases.payer.payLink(found.link, instrument.instrument);
  return afterPayment(deps.useCases.payer, pp, {
    order: found.link,
    accepted: paid === 'accepted',
    instrument: instrument.instrument,
    pagePath: `/pl/${found.link._id}`,
  });
}

/** What the payment link's operations share: the link loaded, its page shown (built once per app). */
const kitOf = perApp(function paymentLinkPageKit(deps: ApiDeps) {
  // BANK_CONNECTOR=http: cards are typed on the bank's page (the payer is sent there and back), never here.
  const pp = pagePayment(deps.config);
  const page = (status: number, html: string) =>
    new HtmlPage(status, html, {}, { formAction: pp.bankOrigin ? [pp.bankOrigin] : [] });

  async function load(request: PageRequest): Promise<Loaded | HtmlPage> {
    const found = await deps.useCases.payer.hostedPaymentLink(request.caller);
    if (!found) return page(404, messagePage('Payment link not found', 'Check the address, or ask the merchant for a new link.'));
    const { page: link, t, merchant } = found;
    const view = {
      merchantName: merchant.name,
      productDescription: t.productDescription,
      invoiceNumber: link.invoiceNumber,
      amountText: formatRupeesGrouped(t.amountPaise),
    };
    return { link, t, view };
  }

  async function show({ link, t, view }: Loaded, error?: string): Promise<HtmlPage | WithCookies> {
    const selfPath = `/pl/${link._id}`;
    if (t.status === 'Failure') {
      if (t.responseCode === PaymentResponse.qrExpired.code) return expired(view);
      return page(200, resultPage({ ...view, outcome: 'declined', detail: t.responseDescription, reference: t.txnId }));
    }
    if (t.status !== 'Pending') {
      return page(
        200,
        resultPage({ ...view, outcome: 'paid', detail: 'Thank you. You may close this page.', reference: t.txnId }),
      );
    }
    const deadline = t.payerDeadline ?? deps.now();
    if (deadline.getTime() <= deps.now().getTime()) return expired(view);
    if (!(await deps.useCases.payer.awaitsPayer(link))) {
      const redirect = pp.cardAtBank ? await deps.useCases.payer.bankRedirectOf(link) : null;
      return page(200, processingPage({ ...view, selfPath, ...(redirect ? { bankUrl: redirectUrl(redirect) } : {}) }));
    }

    const csrf = newFormToken(CSRF_COOKIE, selfPath);
    const intent = upiIntentUrl({
      payeeVpa: deps.config.upi.payeeVpa,
      payeeName: view.merchantName,
      amountPaise: t.amountPaise,
      txnId: t.txnId,
      note: t.productDescription,
      merchantCategoryCode: deps.config.upi.merchantCategoryCode,
    });
    const qr = (await renderQrPngOffLoop(link.merchantIdentifier, intent, 220, 220)).toString('base64');
    const open = openPage({
      ...view,
      qrDataUri: `data:image/png;base64,${qr}`,
      timeLeft: formatTimeLeft(deadline.getTime() - deps.now().getTime()),
      expiresAt: formatIstDateTime(deadline),
      payPath: `${selfPath}/pay`,
      csrf: csrf.token,
      cardAtBank: pp.cardAtBank,
      sandbox: pp.sandbox,
      ...(error ? { error } : {}),
    });
    return new WithCookies(page(error ? 400 : 200, open), [csrf.cookie]);
  }

  const expired = (view: LinkView) =>
    page(410, resultPage({ ...view, outcome: 'expired', detail: 'Ask the merchant for a new payment link.' }));

  return { pp, page, load, show };
});
