import { createHmac } from 'node:crypto';
import type { FeePlan } from '../../../src/domain/settlement-fees';
import { request } from '../http';
import { expectOk, opsAuth, payDirect, secretKey, setAccountByOperators, type ModelOrder, type World } from './world';

/**
 * What operators, marketplaces and bank accounts do to settlements in the model: bursts of
 * payments at realistic amounts, splits among sub-merchants, holds and releases, account changes.
 */

/** A payment of a burst: the payer (a VPA or a card) and the amount in paise. */
export interface BurstPayment {
  kind: 'upi' | 'card';
  payer: string;
  amountPaise: number;
}

/** Many payments of one merchant at once (a busy hour): `lanes` in flight at a time. */
export async function payBurst(w: World, payments: BurstPayment[], lanes = 6): Promise<string> {
  let next = 0;
  const lane = async () => {
    while (next < payments.length) {
      const p = payments[next++]!;
      await payDirect(w, p.kind, p.payer, p.amountPaise);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, payments.length) }, lane));
  const total = payments.reduce((s, p) => s + p.amountPaise, 0);
  return `${payments.length} payments, Rs ${(total / 100).toFixed(2)}`;
}

const ACCOUNTS = {
  first: { ifsc: 'HDFC0001234', accountNumber: '50100012345678', holderName: 'Money Model' },
  second: { ifsc: 'ICIC0004321', accountNumber: '60200098765432', holderName: 'Money Model' },
  // The bank refuses an account number starting 000 (an invalid account: 52).
  refused: { ifsc: 'SBIN0000001', accountNumber: '000123456789', holderName: 'Money Model' },
} as const;
export type AccountChoice = keyof typeof ACCOUNTS;
export const ACCOUNT_CHOICES = Object.keys(ACCOUNTS) as AccountChoice[];

async function setAccount(w: World, merchantIdentifier: string, choice: AccountChoice): Promise<void> {
  await setAccountByOperators(w.stack.gw, merchantIdentifier, ACCOUNTS[choice]);
}

/** The operator changes the merchant's settlement account (perhaps to one the bank refuses). */
export async function changeAccount(w: World, choice: AccountChoice): Promise<string> {
  await setAccount(w, w.merchant.merchantIdentifier, choice);
  return `${choice} (${ACCOUNTS[choice].accountNumber})`;
}

/** The operator holds or releases the merchant's settlements. */
export async function holdOrRelease(w: World, hold: boolean): Promise<string> {
  const r = await request(
    `${w.stack.gw.baseUrl}/ops/v1/merchants/${w.merchant.merchantIdentifier}/settlements/${hold ? 'hold' : 'release'}`,
    { method: 'POST', headers: opsAuth(w) },
  );
  expectOk(hold ? 'hold' : 'release', r, (x) => x.status === 200);
  w.held = hold;
  return JSON.stringify(r.json.data);
}

/** Two sub-merchants linked to the merchant (once), each with an account and the merchant's fee plan. */
async function ensureSellers(w: World): Promise<void> {
  if (w.sellers.length > 0) return;
  for (const name of ['Money Model Seller A', 'Money Model Seller B']) {
    const seller = await w.stack.gw.newMerchant(name);
    const link = await request(`${w.stack.gw.baseUrl}/ops/v1/merchants/${seller.merchantIdentifier}/master`, {
      method: 'PUT',
      headers: opsAuth(w),
      body: { masterMerchantIdentifier: w.merchant.merchantIdentifier },
    });
    expectOk('sub-merchant link', link, (x) => x.status === 200);
    await setAccount(w, seller.merchantIdentifier, 'first');
    await setPlan(w, seller.merchantIdentifier, w.plan);
    w.sellers.push(seller);
  }
}

async function setPlan(w: World, merchantIdentifier: string, plan: FeePlan): Promise<void> {
  const r = await request(`${w.stack.gw.baseUrl}/ops/v1/merchants/${merchantIdentifier}/fee-plan`, {
    method: 'PUT',
    headers: opsAuth(w),
    body: plan,
  });
  expectOk('fee plan', r, (x) => x.status === 200);
}

/**
 * The marketplace splits a paid order (Zaakpay's split API, signed with its secret key): `shares`
 * percent of the amount to each seller (at least a paisa each), the rest to the master. A refusal
 * (the order not paid, split before, already settled) is an answer, not an error.
 */
export async function splitOrder(w: World, order: ModelOrder, shares: number[]): Promise<string> {
  await ensureSellers(w);
  const subs = w.sellers.slice(0, shares.length).map((seller, i) => ({
    zaakMerchantIdentifier: seller.merchantIdentifier,
    merchantAmount: String(Math.max(1, Math.floor((order.amountPaise * shares[i]!) / 100))),
  }));
  const rest = order.amountPaise - subs.reduce((s, x) => s + Number(x.merchantAmount), 0);
  const raw = JSON.stringify({
    orderId: order.orderId,
    orderAmount: String(order.amountPaise),
    masterMerchantIdentifier: {
      zaakMerchantIdentifier: w.merchant.merchantIdentifier,
      merchantAmount: String(Math.max(0, rest)),
    },
    subMerchantIdentifiers: subs,
    isCustomIdentifier: false,
  });
  const r = await request(`${w.stack.gw.baseUrl}/api/v1/splitTxnByAmount`, {
    body: raw,
    headers: { zaakchecksum: createHmac('sha256', secretKey(w)).update(raw).digest('hex') },
  });
  if (r.status >= 500) throw new Error(`split answered ${r.status}: ${r.text.slice(0, 300)}`);
  return `${order.orderId} [${subs.map((s) => s.merchantAmount).join(',')}] → ${r.json?.status} ${r.json?.errorCode}`;
}
