import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { TestGateway } from './gateway';
import { request } from './http';

/** `dd/MM/yyyy HH:mm:ss` in IST, `ms` from now: linkExpireBy as a merchant writes it. */
export function linkExpireBy(msFromNow: number, now = Date.now()): string {
  const t = new Date(now + msFromNow + 5.5 * 3_600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(t.getUTCDate())}/${p(t.getUTCMonth() + 1)}/${t.getUTCFullYear()} ${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:${p(t.getUTCSeconds())}`;
}

export const newBatchId = () => `batch-${randomBytes(5).toString('hex')}`;

/** A valid entry; `overrides` replace or (as undefined) remove fields. */
export function linkEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderId: `pl-${randomBytes(5).toString('hex')}`,
    invoiceNumber: 'INV-1001',
    amount: 249.5,
    internalNotes: 'call before delivery',
    linkExpireBy: linkExpireBy(24 * 3_600_000),
    productDescription: 'Handloom saree',
    customerEmail: 'meera@example.in',
    customerMobile: 9876543210,
    ...overrides,
  };
}

export function createLinks(gw: TestGateway, apiKey: string, body: object | string) {
  return request(`${gw.baseUrl}/pl/api/v1/create`, { body, headers: { 'x-api-key': apiKey } });
}

/** The path of a created link (`/pl/<token>`), from its absolute address. */
export const linkPath = (link: string) => new URL(link).pathname;

/** Opens a link's page as a browser would, keeping its cookie and the form's hidden csrf value. */
export async function openLink(gw: TestGateway, path: string) {
  const res = await fetch(`${gw.baseUrl}${path}`);
  const html = await res.text();
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { status: res.status, html, cookie, csrf };
}

/** Posts the pay form of a link's page. */
export function payForm(gw: TestGateway, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return fetch(`${gw.baseUrl}${path}/pay`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: gw.baseUrl, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * Pays a link's page by card as a browser would. With the in-process sandbox the card is typed on
 * the link's page; against a bank over http (the simulator) the page sends the payer to the bank's
 * page, where the card is typed, and the bank sends the payer back to the gateway.
 */
export async function payByCard(gw: TestGateway, path: string, page: { csrf: string; cookie: string }, cardNumber: string) {
  if (!gw.bank) return payForm(gw, path, { csrf: page.csrf, cardNumber }, { cookie: page.cookie });
  const toBank = await payForm(gw, path, { csrf: page.csrf, cardAtBank: '1' }, { cookie: page.cookie });
  const bankPage = toBank.headers.get('location') ?? '';
  if (toBank.status !== 303 || !bankPage.startsWith(gw.bank.url)) {
    throw new Error(`expected a redirect to the bank's page, got ${toBank.status} ${bankPage}`);
  }
  assert.match(await (await fetch(bankPage)).text(), /name="cardNumber"/);
  const back = await fetch(bankPage, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNumber, action: 'pay' }).toString(),
  });
  assert.equal(back.status, 303);
  assert.ok(back.headers.get('location')?.startsWith(`${gw.rt.config.http.publicBaseUrl}/bank/v1/return/`));
  return back;
}
