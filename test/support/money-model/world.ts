import { hmacSha256Hex } from '../../../src/domain/checksum';
import type { BankSimulator } from '../../../src/bank/simulator/server';
import type { MerchantCredentials } from '../../../src/usecases/provision-merchant';
import type { TestGateway } from '../gateway';
import { kitForm, KIT_FORMS, postForm, legacyChecksum, openPage, submitPageForm, withChecksum } from '../checkout';
import { request, type HttpResult } from '../http';
import { sandboxPay } from '../payments';
import { createQr, payQr } from '../qr';
import { startReceiver } from '../receiver';
import { refund } from '../refunds';
import { skipTime, startTimeSkippingGateway } from '../time-skipping';
import { testStore } from '../servers';
import type { FeePlan } from '../../../src/domain/settlement-fees';
import { breakClaimIfAsked } from './break-claim';
import { settlementAccountUseCases } from '../../../src/usecases/settlement-account';
import { settlementAccountDeps } from '../../../src/main/use-cases/settlement-deps';
import type { SettlementAccountInput } from '../../../src/domain/settlement-account';
import { startStoreProxy, type StoreProxy } from './store-proxy';
import { WorkerCrash } from './worker-crash';

/**
 * The real stack the money model drives (money-model/README in docs/contributors/tests.md): the
 * gateway in time-skipping mode (API, worker, store, Temporal's test server) paying through the
 * bank simulator, and a merchant's webhook receiver on loopback. One stack serves a whole run;
 * each sequence gets a merchant of its own, so the checker reads only that sequence's money.
 */
export interface MoneyStack {
  gw: TestGateway;
  bank: BankSimulator;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** Merchants whose receiver answers 500 for now. */
  receiverDown: Set<string>;
  /**
   * When the bank booked each debit (its debitId), in the gateway's time (the test server's clock,
   * read as the booking happens): the bank's books carry no time, and the model's invariant 3 needs it.
   */
  debitBookedAt: Map<string, number>;
  /** The gateway reaches the store through it: the store-outage command cuts it for a while. */
  storeProxy: StoreProxy;
  /** The worker-crash command arms it: the next activity runs die before or after their work. */
  workerCrash: WorkerCrash;
  stop(): Promise<void>;
}

export async function startMoneyStack(): Promise<MoneyStack> {
  const receiverDown = new Set<string>();
  const storeProxy = await startStoreProxy((await testStore()).uri);
  const workerCrash = new WorkerCrash();
  const gw = await startTimeSkippingGateway(
    // The sandbox payer answers a new mandate after a workflow sleep that the test server serves
    // in real time (the model only skips time between commands): a fifth of a second keeps the
    // mandate CREATED for a moment at a fraction of the default's cost per mandate.
    { TIME_SKIP_TIMEOUT_SECONDS: '30', MONGODB_URI: storeProxy.uri, SANDBOX_MANDATE_PAYER_SECONDS: '0.2' },
    { bank: 'simulator', activityInterceptors: [workerCrash.interceptor] },
  );
  breakClaimIfAsked();
  const receiver = await startReceiver((n) =>
    receiverDown.has(merchantOfCall(receiver.calls[n - 1]!.url))
      ? { status: 500, body: 'down' }
      : { status: 200, body: 'SUCCESS' },
  );
  const debitBookedAt = new Map<string, number>();
  const debits = gw.bank!.books.debits;
  const book = debits.set.bind(debits);
  debits.set = (debitId, entry) => {
    if (!debits.has(debitId)) {
      debitBookedAt.set(debitId, gw.rt.now().getTime());
      // The clock's offset may predate a skip under way: the server's own time replaces it.
      void gw.rt.timeTravel?.clock.sync().then(
        (t) => debitBookedAt.set(debitId, t.getTime()),
        () => undefined, // the stack stopped meanwhile
      );
    }
    return book(debitId, entry);
  };
  return {
    gw,
    bank: gw.bank!,
    receiver,
    receiverDown,
    debitBookedAt,
    storeProxy,
    workerCrash,
    async stop() {
      // The bank simulator outlives the stack (one per process): its books stop reporting here.
      debits.set = book;
      await receiver.close();
      await gw.stop();
      await storeProxy.close();
    },
  };
}

/** The receiver's path names the merchant: /hooks/payments/<merchantIdentifier>[?realtime=...]. */
export const merchantOfCall = (url: string) => url.split('?')[0]!.split('/').pop() ?? '';

export type OrderKind = 'upi' | 'card' | 'qr' | 'checkout';

export interface ModelOrder {
  orderId: string;
  kind: OrderKind;
  amountPaise: number;
  /** The payer's VPA or card; a QR's once paid. */
  payer?: string;
  txnId?: string;
}

/** One sequence's merchant and what the model did to it (for the checker and a failure's story). */
export interface World {
  stack: MoneyStack;
  merchant: MerchantCredentials;
  orders: ModelOrder[];
  /**
   * Secret keys in the order they took force, with when (wall clock, as the receiver sees calls):
   * `requestedAt` when the rotation was asked for, `since` when it was answered. The gateway commits
   * the new key somewhere between the two, so a call received in that span may carry either key.
   */
  keys: { secretKey: string; since: number; requestedAt: number }[];
  reconciliationIds: string[];
  mandates: ModelMandate[];
  debits: ModelDebit[];
  /** The settlements the sequence started (their ids), in order (settle.ts). */
  settlements: string[];
  /** The merchant's fee plan: every instrument charged (settlement-invariants.ts computes the fees again). */
  plan: FeePlan;
  /** Sub-merchants linked to the merchant, created by the first split (settlement-actions.ts). */
  sellers: MerchantCredentials[];
  /** The operator holds the merchant's settlements. */
  held: boolean;
  /** When the sequence began (gateway time): the schedule settles every working date from its first capture on. */
  startedAt: Date;
  /** The daily run that has not ended (a bank file it cannot read): the schedule skips while it runs. */
  openDailyRun?: { id: string; why: string };
  story: string[];
}

/** A mandate the sandbox payer approved; `revoked` once the gateway acknowledged the payer's revoke. */
export interface ModelMandate {
  orderId: string;
  payer: string;
  /** The debits (debitIds) the bank had booked under it when the revoke was acknowledged. */
  revoked?: { debitsAtBank: string[] };
}

/** A debit the gateway accepted (1109): when it may run at the earliest. */
export interface ModelDebit {
  orderId: string;
  mandateOrderId: string;
  txnId: string;
  executeAtMs: number;
}

/** The bank's id of a mandate (protocol.ts: `<merchantIdentifier>:<orderId>`). */
export const bankMandateId = (w: World, m: ModelMandate) => `${w.merchant.merchantIdentifier}:${m.orderId}`;

export async function newWorld(stack: MoneyStack, o: { autoRefund: boolean; seed: number; plan: FeePlan }): Promise<World> {
  stack.workerCrash.disarm();
  const merchant = await stack.gw.newMerchant('Money Model Merchant');
  await stack.gw.rt.merchants.updateSettings(merchant.merchantIdentifier, {
    webhookUrl: `${stack.receiver.url}/${merchant.merchantIdentifier}`,
    webhookFormat: 'json',
    autoRefund: o.autoRefund,
  });
  // Its settlements pay to an account two operators set.
  await setAccountByOperators(stack.gw, merchant.merchantIdentifier, {
    ifsc: 'HDFC0001234',
    accountNumber: '50100012345678',
    holderName: 'Money Model',
  });
  const plan = await request(`${stack.gw.baseUrl}/ops/v1/merchants/${merchant.merchantIdentifier}/fee-plan`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${stack.gw.rt.config.secrets.opsToken}` },
    body: o.plan,
  });
  expectOk('fee plan', plan, (x) => x.status === 200);
  // The bank's random choices of this sequence (reordered callbacks, shares) follow its seed.
  stack.bank.conduct.configure({ seed: o.seed >>> 0, share: 0 });
  return {
    stack,
    merchant,
    orders: [],
    keys: [{ secretKey: merchant.secretKey, since: 0, requestedAt: 0 }],
    reconciliationIds: [],
    mandates: [],
    debits: [],
    settlements: [],
    plan: o.plan,
    sellers: [],
    held: false,
    startedAt: stack.gw.rt.now(),
    story: [`merchant ${merchant.merchantIdentifier} (autoRefund ${o.autoRefund}, fee plan ${JSON.stringify(o.plan)})`],
  };
}

export const secretKey = (w: World) => w.keys.at(-1)!.secretKey;
export const opsAuth = (w: World) => ({ authorization: `Bearer ${w.stack.gw.rt.config.secrets.opsToken}` });
let counter = 0;
const nextOrderId = (kind: string) => `mm-${kind}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export function expectOk(what: string, r: HttpResult, ok: (r: HttpResult) => boolean): HttpResult {
  if (!ok(r)) throw new Error(`${what} answered ${r.status}: ${r.text.slice(0, 300)}`);
  return r;
}

/** A direct payment; its order id (a command running beside another cannot take the last order as its own). */
export async function payDirect(w: World, kind: 'upi' | 'card', payer: string, amountPaise: number): Promise<string> {
  const orderId = nextOrderId(kind);
  const r = await sandboxPay(w.stack.gw, {
    merchantIdentifier: w.merchant.merchantIdentifier,
    orderId,
    amount: amountPaise,
    ...(kind === 'upi' ? { payerVpa: payer } : { cardNumber: payer }),
  });
  expectOk('sandbox payment', r, (x) => x.status === 202 || x.status === 200);
  w.orders.push({ orderId, kind, amountPaise, payer, txnId: r.json?.data?.txnId });
  return orderId;
}

export async function openQr(w: World, amountPaise: number): Promise<string> {
  const orderId = nextOrderId('qr');
  const r = await createQr(w.stack.gw, { ...w.merchant, secretKey: secretKey(w) }, { orderId, amount: amountPaise });
  expectOk('dynamic QR', r, (x) => x.status === 201 || x.status === 200);
  const t = await w.stack.gw.rt.transactions.findByOrder({ merchantIdentifier: w.merchant.merchantIdentifier, orderId });
  w.orders.push({ orderId, kind: 'qr', amountPaise, txnId: t?.txnId });
  return orderId;
}

/** The payer scans an open QR with a sandbox VPA; refused (409 or 4xx) once the QR is closed. */
export async function scanQr(w: World, order: ModelOrder, vpa: string): Promise<number> {
  const r = await payQr(w.stack.gw, { merchantIdentifier: w.merchant.merchantIdentifier, orderId: order.orderId, payerVpa: vpa });
  if (r.status < 300) order.payer = vpa;
  if (r.status >= 500) throw new Error(`QR pay answered ${r.status}: ${r.text.slice(0, 300)}`);
  return r.status;
}

/**
 * A hosted checkout (legacy /transact) whose page handed out a UPI intent, which the payer cancels
 * on the page: the order is Failure (cancelled by the payer) until the bank says otherwise.
 */
export async function cancelledCheckout(w: World, amountPaise: number): Promise<string> {
  const orderId = nextOrderId('cx');
  const m = w.merchant.merchantIdentifier;
  // WooCommerce 2.0's form, as it posts it to ?v=2.
  const pairs = kitForm(KIT_FORMS.wooCommerce20, {
    merchantIdentifier: m,
    orderId,
    returnUrl: 'http://localhost/zp/response.php',
    amount: String(amountPaise),
    productDescription: 'Money model checkout',
  });
  const gw = w.stack.gw;
  const posted = await postForm(`${gw.baseUrl}/transact?v=2`, withChecksum(pairs, legacyChecksum(secretKey(w), pairs)), {
    browser: true,
  });
  if (posted.status !== 303) throw new Error(`checkout answered ${posted.status}: ${posted.text.slice(0, 300)}`);
  const page = await openPage(gw, posted.location!);
  const cancelled = await submitPageForm(gw, `${posted.location}/cancel`, page);
  if (cancelled.status !== 303) throw new Error(`checkout cancel answered ${cancelled.status}: ${cancelled.text.slice(0, 300)}`);
  const t = await gw.rt.transactions.findByOrder({ merchantIdentifier: m, orderId });
  w.orders.push({ orderId, kind: 'checkout', amountPaise, txnId: t?.txnId });
  return orderId;
}

/** The payer pays the QR's intent in their UPI app, whatever the gateway's page became meanwhile. */
export async function payIntentInApp(w: World, order: ModelOrder): Promise<number> {
  const r = await request(`${w.stack.bank.url}/admin/intents/pay`, {
    headers: { authorization: `Bearer ${w.stack.bank.adminToken}` },
    body: {
      txnId: order.txnId,
      merchantIdentifier: w.merchant.merchantIdentifier,
      orderId: order.orderId,
      amountPaise: order.amountPaise,
      callbackUrl: `${w.stack.gw.rt.config.http.publicBaseUrl}/bank/v1/callbacks`,
      qr: order.kind === 'qr',
    },
  });
  expectOk('intent paid in the app', r, (x) => x.status < 300);
  return r.status;
}

/** Refunds as the merchant asks them (full "14" or partial "22"); several at once when `copies` > 1. */
export async function askRefunds(
  w: World,
  order: ModelOrder,
  r: { amountPaise: number | 'full'; merchantRefIds: (string | undefined)[] },
): Promise<number[]> {
  const merchant = { ...w.merchant, secretKey: secretKey(w) };
  const answers = await Promise.all(
    r.merchantRefIds.map((merchantRefId) =>
      refund(w.stack.gw, merchant, {
        orderId: order.orderId,
        ...(r.amountPaise === 'full' ? {} : { updateDesired: '22', amount: String(r.amountPaise) }),
        ...(merchantRefId !== undefined ? { merchantRefId } : {}),
      }),
    ),
  );
  for (const a of answers) if (a.status >= 500) throw new Error(`refund answered ${a.status}: ${a.text.slice(0, 300)}`);
  return answers.map((a) => a.status);
}

/**
 * The operator records the bank's chargeback of an order (`raise`, `share` % of it) or its revert
 * (of the amount raised, as the bank reverts it); a refusal (not Success, nothing to revert) is an answer.
 */
export async function chargeback(w: World, order: ModelOrder, action: 'raise' | 'revert', share: number): Promise<string> {
  const m = w.merchant.merchantIdentifier;
  const raised = (await w.stack.gw.rt.transactions.findByOrder({ merchantIdentifier: m, orderId: order.orderId }))?.chargeback;
  const amount = action === 'revert' && raised ? raised.amountPaise : Math.max(1, Math.floor((order.amountPaise * share) / 100));
  const r = await request(`${w.stack.gw.baseUrl}/ops/v1/chargebacks`, {
    headers: opsAuth(w),
    body: { merchantIdentifier: m, orderId: order.orderId, action, amount },
  });
  if (r.status >= 500) throw new Error(`chargeback answered ${r.status}: ${r.text.slice(0, 300)}`);
  return `${order.orderId} ${amount} → ${r.json?.success === true ? r.json.data.txnStatus : r.json?.message?.code}`;
}

export async function rotateSecretKey(w: World): Promise<void> {
  const base = `${w.stack.gw.baseUrl}/ops/v1/merchants/${w.merchant.merchantIdentifier}`;
  const requestedAt = Date.now();
  const r = expectOk(
    'secret-key rotation',
    await request(`${base}/secret-key/rotate`, { method: 'POST', headers: opsAuth(w) }),
    (x) => Boolean(x.json?.data?.secretKey),
  );
  w.keys.push({ secretKey: r.json.data.secretKey, since: Date.now(), requestedAt });
}

/** The bank's settlement file of this merchant: every payment it approved. */
export async function uploadBankFile(w: World): Promise<void> {
  const books = w.stack.bank.books.snapshot(w.merchant.merchantIdentifier);
  const lines = books.payments
    .filter((p) => p.answer.status === 'APPROVED')
    .map((p) => `${p.request.txnId},${p.answer.bankRefNum ?? 'none'},SUCCESS,${p.request.amountPaise}`);
  if (lines.length === 0) return;
  const r = await fetch(`${w.stack.gw.baseUrl}/ops/v1/reconciliations`, {
    method: 'POST',
    body: ['txnId,bankRefNum,status,amount', ...lines].join('\n'),
    headers: { 'content-type': 'text/csv', ...opsAuth(w) },
  });
  const text = await r.text();
  if (r.status !== 202) throw new Error(`reconciliation upload answered ${r.status}: ${text.slice(0, 300)}`);
  const id = JSON.parse(text).data.reconciliationId as string;
  w.reconciliationIds.push(id);
  await w.stack.gw.rt.temporal.workflow.getHandle(`reconciliation:${id}`).result();
}

export async function skip(w: World, seconds: number): Promise<void> {
  const r = await skipTime(w.stack.gw, { seconds });
  if (r.status !== 200) throw new Error(`time skip answered ${r.status}: ${r.text.slice(0, 300)}`);
}

/** A webhook call's checksum as the merchant verifies it: HMAC-SHA256 of txnData with a secret key. */
export const verifies = (txnData: string, checksum: string, key: string) => hmacSha256Hex(key, txnData) === checksum;

/**
 * Stops the stack's servers and starts fresh ones in the same object (worlds and commands hold it),
 * for a sequence to run again on a new Temporal test server (run.ts, the test server's defect).
 */
export async function restartMoneyStack(stack: MoneyStack): Promise<void> {
  await Promise.race([stack.stop(), new Promise((r) => setTimeout(r, 60_000))]);
  Object.assign(stack, await startMoneyStack());
}

/**
 * The account as operators set it: one proposes, another confirms, and (a replaced account cools)
 * one confirms it early, as an operator who checked it with the merchant would.
 */
export async function setAccountByOperators(gw: TestGateway, merchantIdentifier: string, account: SettlementAccountInput) {
  const accounts = settlementAccountUseCases(settlementAccountDeps(gw.rt));
  const by = (name: string) => ({ actor: { kind: 'operator' as const, name }, from: null });
  const proposed = await accounts.propose(merchantIdentifier, account, by('model-proposer'));
  const named = { proposedAt: proposed!.pendingChange!.proposedAt, accountLast4: account.accountNumber.slice(-4) };
  const confirmed = await accounts.confirm(merchantIdentifier, named, by('model-confirmer'));
  if (typeof confirmed !== 'object') throw new Error(`the account change was not confirmed: ${confirmed}`);
  if (confirmed.settlementAccount?.coolingUntil)
    await accounts.confirmEarly(merchantIdentifier, account.accountNumber.slice(-4), by('model-confirmer'));
}
