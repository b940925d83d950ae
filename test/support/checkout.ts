import { createHmac } from 'node:crypto';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import type { TestGateway } from './gateway';

/**
 * A merchant's side of Zaakpay's checkout, written from the rulings in docs/contributors/design.md (Checkout) and the public
 * kits' documented behaviour, never from the gateway's code: the request checksums, the posts, and
 * the verification of the signed return.
 */

export const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('hex');

export type Pairs = [string, string][];

/** A form body with the pairs in this order (the legacy checksum depends on it). */
export const formBody = (pairs: Pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

export interface Posted {
  status: number;
  location: string | null;
  type: string;
  text: string;
  json: any;
}

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** Posts a form as a browser (Accept HTML) or a server would; redirects are not followed. */
export async function postForm(
  url: string,
  pairs: Pairs,
  o: { browser?: boolean; method?: 'GET' | 'POST'; headers?: Record<string, string> } = {},
): Promise<Posted> {
  const method = o.method ?? 'POST';
  const body = formBody(pairs);
  const res = await fetch(method === 'GET' ? `${url}${url.includes('?') ? '&' : '?'}${body}` : url, {
    method,
    redirect: 'manual',
    headers: {
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      accept: o.browser ? BROWSER_ACCEPT : 'application/json',
      ...o.headers,
    },
    ...(method === 'POST' ? { body } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, location: res.headers.get('location'), type: res.headers.get('content-type') ?? '', text, json };
}

/** `/transactU?v=8`'s data, as the custom checkout sends it. */
export function v8Data(merchant: MerchantCredentials, orderId: string, o: { orderDetail?: object; [k: string]: unknown } = {}) {
  const { orderDetail, ...rest } = o;
  return {
    merchantIdentifier: merchant.merchantIdentifier,
    showMobile: 'true',
    mode: '0',
    returnUrl: 'http://127.0.0.1:9/return',
    orderDetail: {
      orderId,
      amount: '25050',
      currency: 'INR',
      productDescription: 'Masala chai',
      email: 'payer@example.com',
      ...orderDetail,
    },
    ...rest,
  };
}

/** `POST /transactU?v=8` with `data` and its checksum (HMAC-SHA256 of the exact data text). */
export function postTransactU(
  gw: TestGateway,
  secret: string,
  data: object | string,
  o: { browser?: boolean; checksum?: string; v?: string; headers?: Record<string, string> } = {},
): Promise<Posted> {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return postForm(
    `${gw.baseUrl}/transactU?v=${o.v ?? '8'}`,
    [
      ['data', text],
      ['checksum', o.checksum ?? hmac(secret, text)],
    ],
    o,
  );
}

/** The express checkout's signed fields, in the order the kits sign them (design.md, Checkout). */
const EXPRESS_ORDER = [
  'amount',
  'bankid',
  'buyerAddress',
  'buyerCity',
  'buyerCountry',
  'buyerEmail',
  'buyerFirstName',
  'buyerLastName',
  'buyerPhoneNumber',
  'buyerPincode',
  'buyerState',
  'currency',
  'debitorcredit',
  'merchantIdentifier',
  'merchantIpAddress',
  'mode',
  'orderId',
  'product1Description',
  'product2Description',
  'product3Description',
  'product4Description',
  'productDescription',
  'productInfo',
  'purpose',
  'returnUrl',
  'shipToAddress',
  'shipToCity',
  'shipToCountry',
  'shipToFirstname',
  'shipToLastname',
  'shipToPhoneNumber',
  'shipToPincode',
  'shipToState',
  'showMobile',
  'txnDate',
  'txnType',
  'zpPayOption',
];

/** `key=value&` for each non-empty listed field, in the list's order. */
export function expressChecksum(secret: string, pairs: Pairs, value: (k: string, v: string) => string = (_k, v) => v): string {
  const m = new Map(pairs);
  return hmac(
    secret,
    EXPRESS_ORDER.filter((k) => (m.get(k) ?? '') !== '')
      .map((k) => `${k}=${value(k, m.get(k)!)}&`)
      .join(''),
  );
}

/** What Zaakpay's PHP kits strip before signing (returnUrl keeps # = : &). */
export function phpSanitize(k: string, v: string): string {
  return k === 'returnUrl' ? v.replace(/[,(){}<>`!$%^+|\\'";~[\]*]/g, '') : v.replace(/[,#(){}<>`!$%^=+|\\:'";~[\]*&]/g, '');
}

/** The flat fields as the Node kit's form posts them: every field, the empty ones too. */
export function expressPairs(merchant: MerchantCredentials, orderId: string, extra: Pairs = []): Pairs {
  const base: Pairs = [
    ['merchantIdentifier', merchant.merchantIdentifier],
    ['orderId', orderId],
    ['returnUrl', 'http://127.0.0.1:9/response'],
    ['amount', '25050'],
    ['buyerEmail', ''],
    ['buyerFirstName', ''],
    ['buyerLastName', ''],
    ['txnType', ''],
    ['zpPayOption', ''],
    ['mode', ''],
    ['currency', 'INR'],
    ['merchantIpAddress', ''],
    ['purpose', ''],
    ['productDescription', 'Masala chai'],
  ];
  const overridden = new Map(extra);
  return [...base.filter(([k]) => !overridden.has(k)).map(([k, v]) => [k, v] as [string, string]), ...extra];
}

const BUYER = [
  'buyerEmail',
  'buyerFirstName',
  'buyerLastName',
  'buyerAddress',
  'buyerCity',
  'buyerState',
  'buyerCountry',
  'buyerPincode',
  'buyerPhoneNumber',
];
const PAYMENT = ['txnType', 'zpPayOption', 'mode', 'currency', 'amount', 'merchantIpAddress', 'purpose', 'productDescription'];
const SHIP_TO = [
  'shipToAddress',
  'shipToCity',
  'shipToState',
  'shipToCountry',
  'shipToPincode',
  'shipToPhoneNumber',
  'shipToFirstname',
  'shipToLastname',
];

const OSCOMMERCE = [
  'merchantIdentifier',
  'orderId',
  'returnUrl',
  ...BUYER,
  'currency',
  'amount',
  'productDescription',
  ...SHIP_TO,
  'txnType',
  'zpPayOption',
  'mode',
  'merchantIpAddress',
  'purpose',
  'txnDate',
];

/**
 * Legacy checkout forms as Zaakpay's kits post them, every field in the kit's order (read from the
 * kits themselves): the PHP kit's merchant form (`test_merchant_input.html`, posted field for field
 * by `posttozaakpay.php`), WooCommerce 2.0's (`zaakpay/index.php`, to `/transact?v=2`) and the shop
 * plugins' (each `zaakpay-<platform>-kit` repository, the file named).
 */
export const KIT_FORMS = {
  php: [
    'merchantIdentifier',
    'orderId',
    'returnUrl',
    ...BUYER,
    ...PAYMENT,
    'product1Description',
    'product2Description',
    'product3Description',
    'product4Description',
    ...SHIP_TO,
    'txnDate',
  ],
  wooCommerce20: ['merchantIdentifier', 'orderId', 'returnUrl', ...BUYER, ...PAYMENT, 'txnDate'],
  /** `payment/zaakpay.php`: txnType and the rest after the shipping fields. */
  osCommerce: OSCOMMERCE,
  /** `module/zaakpay.php`: Zen Cart's form puts its securityToken first, and the plugin signs it. */
  zenCart: ['securityToken', ...OSCOMMERCE],
  /** `zaakpay.php`: shipToFirstName and shipToLastName spelt so. */
  virtueMart2: [
    'merchantIdentifier',
    'orderId',
    'returnUrl',
    ...BUYER,
    ...PAYMENT,
    ...SHIP_TO.slice(0, 6),
    'shipToFirstName',
    'shipToLastName',
    'txnDate',
  ],
  /** `Zaakpay/gateway.class.php`: ShipTo... capitalised. */
  cubeCart: [
    'merchantIdentifier',
    'orderId',
    'returnUrl',
    ...BUYER,
    ...PAYMENT,
    ...SHIP_TO.map((k) => k.replace(/^s/, 'S')),
    'txnDate',
  ],
};

/** A kit's form with these values, the kit's own constants where it sets them, and '' for the rest. */
export function kitForm(names: readonly string[], values: Record<string, string>): Pairs {
  const kitConstants: Record<string, string> = {
    txnType: '1',
    zpPayOption: '1',
    mode: '0',
    currency: 'INR',
    merchantIpAddress: '127.0.0.1',
    purpose: '1',
  };
  return names.map((k) => [k, values[k] ?? kitConstants[k] ?? '']);
}

/** A legacy form as WooCommerce 2.0 posts it to `/transact?v=2` (Rs 100, returning to a PHP page). */
export function legacyKitPairs(merchant: MerchantCredentials, orderId: string, productDescription: string): Pairs {
  return kitForm(KIT_FORMS.wooCommerce20, {
    merchantIdentifier: merchant.merchantIdentifier,
    orderId,
    returnUrl: 'http://localhost/zp/response.php',
    amount: '10000',
    productDescription,
  });
}

export const withChecksum = (pairs: Pairs, checksum: string): Pairs => [...pairs, ['checksum', checksum]];

/** The legacy checksum: every posted field but checksum, each value in single quotes, in the order posted. */
export function legacyChecksum(secret: string, pairs: Pairs, value: (k: string, v: string) => string = (_k, v) => v): string {
  return hmac(
    secret,
    pairs
      .filter(([k]) => k !== 'checksum')
      .map(([k, v]) => `'${value(k, v)}'`)
      .join(''),
  );
}

/** The hosted page and its form token (the Strict cookie the forms must echo). */
export async function openPage(
  gw: TestGateway,
  path: string,
): Promise<{ status: number; html: string; cookie: string; csrf: string }> {
  const res = await fetch(`${gw.baseUrl}${path}`, { redirect: 'manual', headers: { accept: BROWSER_ACCEPT } });
  const html = await res.text();
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { status: res.status, html, cookie, csrf };
}

/** Posts one of the page's forms (pay or cancel) as the page would. */
export async function submitPageForm(gw: TestGateway, path: string, page: { cookie: string; csrf: string }, fields: Pairs = []) {
  return postForm(`${gw.baseUrl}${path}`, [['csrf', page.csrf], ...fields], {
    browser: true,
    headers: { cookie: page.cookie, origin: gw.baseUrl },
  });
}

/**
 * Pays a checkout on its page as a browser would. With the in-process sandbox every instrument is
 * taken on the page; against a bank over http (the simulator) a card is typed, and net banking
 * approved, on the bank's page, which sends the payer back to the gateway.
 */
export async function payOnCheckoutPage(gw: TestGateway, location: string, fields: Pairs): Promise<void> {
  const page = await openPage(gw, location);
  if (page.status !== 200) throw new Error(`checkout page ${page.status}: ${page.html}`);
  const m = new Map(fields);
  const atBank = gw.bank && (m.has('cardNumber') || m.has('bankCode'));
  const posted = await submitPageForm(
    gw,
    `${location}/pay`,
    page,
    atBank && m.has('cardNumber') ? [['cardAtBank', '1']] : fields,
  );
  if (posted.status !== 303) throw new Error(`pay form ${posted.status}: ${posted.text}`);
  if (!atBank) return;
  const bankPage = posted.location ?? '';
  if (!bankPage.startsWith(gw.bank!.url)) throw new Error(`expected the bank's page, got ${bankPage}`);
  const back = await postForm(bankPage, [
    ...(m.has('cardNumber') ? [['cardNumber', m.get('cardNumber')!] as [string, string]] : []),
    ['action', 'pay'],
  ]);
  if (back.status !== 303) throw new Error(`bank page ${back.status}: ${back.text}`);
}

/** Looks at the page until it shows the final result (the order's workflow decides). */
export async function awaitResultPage(gw: TestGateway, path: string): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const { html } = await openPage(gw, path);
    if (html.includes('id="result"')) return html;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no result on ${path}`);
}

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The return form of a result page: its action and hidden fields, in order, as a browser would post them. */
export function returnFormOf(html: string): { action: string; fields: Pairs; autoSubmits: boolean } {
  const form = /<form method="post" action="([^"]*)" id="return">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no return form');
  const fields = [...form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map(
    (m) => [decode(m[1]!), decode(m[2]!)] as [string, string],
  );
  return {
    action: decode(form[1]!),
    fields,
    autoSubmits: /<script nonce="[^"]+">document.getElementById\('return'\).submit\(\);<\/script>/.test(html),
  };
}

/** The V8 return's fields and order (design.md, Checkout: the return); V7 is the first twelve but bankid. */
export const V8_RETURN = [
  'amount',
  'bank',
  'bankid',
  'cardId',
  'cardScheme',
  'cardToken',
  'cardhashid',
  'doRedirect',
  'orderId',
  'paymentMethod',
  'paymentMode',
  'responseCode',
  'responseDescription',
  'productDescription',
  'product1Description',
  'product2Description',
  'product3Description',
  'product4Description',
  'pgTransId',
  'pgTransTime',
];
export const V7_RETURN = V8_RETURN.slice(0, 13).filter((k) => k !== 'bankid');

/**
 * A merchant's verification of the return, as design.md describes it (Checkout: the return): V8/V7 `key=value&` of the
 * listed fields in order; legacy the quoted values of every posted field but checksum, in order.
 */
export function returnVerifies(secret: string, kind: 'V8' | 'V7' | 'legacy', fields: Pairs): boolean {
  const m = new Map(fields);
  const text =
    kind === 'legacy'
      ? fields
          .filter(([k]) => k !== 'checksum')
          .map(([, v]) => `'${v}'`)
          .join('')
      : (kind === 'V8' ? V8_RETURN : V7_RETURN).map((k) => `${k}=${m.get(k)}&`).join('');
  return hmac(secret, text) === m.get('checksum');
}
