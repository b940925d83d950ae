import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa, { type Context } from 'koa';
import getRawBody from 'raw-body';
import { z } from 'zod';
import {
  bankCallbackSchema,
  debitRequestSchema,
  mandateRequestSchema,
  notificationRequestSchema,
  paymentRequestSchema,
  refundRequestSchema,
  type BankCallback,
  type BankError,
  type BankPaymentResponse,
  type BankResponseCode,
} from '../protocol';
import { buildBankOpenApiDocument } from '../openapi';
import { BANK_SIGNATURE_HEADER, BANK_TIMESTAMP_HEADER, verifyBankSignature } from '../signing';
import { SimulatorBooks, type DebitEntry, type PaymentEntry, type RefundEntry } from './books';
import { callbackSender } from './callbacks';
import { BankConductTable, type ConductSettings } from './conduct';
import { hostileRoutes } from './hostile-routes';
import { payoutRoutes, type PayoutEntry } from './payouts';
import { FaultTable, faultOf, faultRuleSchema, type Fault, type RequestFacts } from './faults';
import {
  decideDebit,
  decideMandate,
  decidePayment,
  decideRedirect,
  decideRefund,
  describeCode,
  referenceDigits,
  type CardSeen,
} from './outcomes';
import { simulatorGuard } from './admin-guard';
import { bankPage, resultPage } from './pages';

/**
 * The bank simulator: a real HTTP server that speaks the acquirer protocol v1 (src/bank/protocol.ts)
 * with the sandbox's outcomes, keeps its own books, and produces the faults real banks produce on
 * demand (faults.ts). Never part of the gateway: `npm run bank-simulator` runs it as its own process,
 * and `npm start -- --bank=simulator` starts that process beside the stack.
 *
 *   /v1/...          the protocol (signed both ways, like a real acquirer)
 *   /pages/pay/:id   the bank's page of a REDIRECT payment (card number, net banking approval)
 *   /admin/...       books, faults and bank-side settlement, for testers (the admin token, admin-guard.ts)
 */
export interface SimulatorOptions {
  /** The simulator's own secret, shared only with a sandbox gateway (never a production BANK_SECRET). */
  secret: string;
  /** Bearer token of /admin/*; a random one when absent (read it from the returned `adminToken`). */
  adminToken?: string;
  /** Address the simulator is reached at (redirect pages); defaults to the listening address. */
  publicUrl?: string;
  /** A REDIRECT without a returnUrl (no browser: a sandbox API payer) completes by itself after this long. */
  payerDelayMs?: number;
  /** Refunds settle this long after the request (PENDING meanwhile); 0 answers them at once. */
  refundDelayMs?: number;
  /** Waits between attempts of one callback (the first is usually 0). */
  callbackRetryMs?: number[];
  /** Timeout of one callback attempt. */
  callbackTimeoutMs?: number;
  /** The hostile conducts' random share and the seed of every random choice (conduct.ts). */
  conduct?: ConductSettings;
  log?: (line: string) => void;
}

export interface BankSimulator {
  url: string;
  /** Bearer token of the /admin/* routes. */
  adminToken: string;
  books: SimulatorBooks;
  /** The payouts it made or refused, by payoutId (payouts.ts). */
  payouts: Map<string, PayoutEntry>;
  faults: FaultTable;
  conduct: BankConductTable;
  server: http.Server;
  /** Callbacks still being sent settle (tests wait for them before reading the books). */
  idle(): Promise<void>;
  /** Everything the bank still has to do is done: its late answers and settlements too, and their callbacks. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 65_536;

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly error: BankError['error'],
    message: string,
  ) {
    super(message);
  }
}

export async function startBankSimulator(
  o: SimulatorOptions,
  listen: { host?: string; port?: number } = {},
): Promise<BankSimulator> {
  const books = new SimulatorBooks();
  const payouts = new Map<string, PayoutEntry>();
  const conduct = new BankConductTable(o.conduct);
  const faults = new FaultTable(conduct.random);
  const log = o.log ?? (() => undefined);
  const payerDelayMs = o.payerDelayMs ?? 200;
  const refundDelayMs = o.refundDelayMs ?? 0;
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = o.publicUrl ?? '';

  /** Later work of the bank (a late answer, a payer on autopilot, a settling refund). */
  const later = (ms: number, work: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      work();
    }, ms);
    timers.add(t);
  };
  const track = (p: Promise<void>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  const { send: sendCallback, notify } = callbackSender({
    secret: o.secret,
    books,
    retryMs: o.callbackRetryMs ?? [0, 250, 1000, 3000, 10_000],
    timeoutMs: o.callbackTimeoutMs ?? 10_000,
    track,
    random: conduct.random,
    log,
  });

  // ---------- payments ----------

  function paymentAnswer(entry: PaymentEntry, approved: boolean, code: BankResponseCode, card?: CardSeen): BankPaymentResponse {
    const digits = referenceDigits(entry.request.txnId);
    return {
      txnId: entry.request.txnId,
      amountPaise: entry.request.amountPaise,
      status: approved ? 'APPROVED' : 'DECLINED',
      responseCode: code,
      responseDescription: describeCode(code),
      bankRefNum: approved ? digits.slice(0, 12) : null,
      authCode: approved ? digits.slice(12, 18) : null,
      ...(card ? { card } : {}),
    };
  }

  /** Commits the final answer of a payment that was PENDING or REDIRECT; `callback` false for a lost one. */
  function settlePayment(
    entry: PaymentEntry,
    verdict: { approved: boolean; code: BankResponseCode; card?: CardSeen },
    o2: { callback: boolean; faults: Fault[] },
  ): boolean {
    if (entry.answer.status === 'APPROVED' || entry.answer.status === 'DECLINED') return false;
    entry.answer = paymentAnswer(entry, verdict.approved, verdict.code, verdict.card);
    entry.committedAt = new Date().toISOString();
    entry.awaitingPayer = false;
    log(`payment ${entry.request.txnId} ${entry.answer.status} (${entry.request.amountPaise} paise)`);
    if (o2.callback) notify(entry.request.callbackUrl, paymentCallback(entry), o2.faults);
    return true;
  }

  function paymentCallback(entry: PaymentEntry): BankCallback {
    const a = entry.answer;
    return {
      type: 'payment',
      eventId: `evt-pay-${entry.request.txnId}`,
      txnId: a.txnId,
      merchantIdentifier: entry.request.merchantIdentifier,
      ...(entry.request.orderId ? { orderId: entry.request.orderId } : {}),
      amountPaise: a.amountPaise,
      status: a.status === 'APPROVED' ? 'APPROVED' : 'DECLINED',
      responseCode: a.responseCode,
      responseDescription: a.responseDescription,
      bankRefNum: a.bankRefNum,
      authCode: a.authCode,
      ...(a.card ? { card: a.card } : {}),
    };
  }

  function createPayment(body: z.infer<typeof paymentRequestSchema>, ruleFaults: Fault[]): BankPaymentResponse {
    const existing = books.payments.get(body.txnId);
    if (existing) {
      requireSame('txnId', existing.request, body, ['merchantIdentifier', 'amountPaise']);
      existing.requests++;
      return existing.answer;
    }
    // A rule's fault wins over the same kind from the payer's conduct.
    const requestFaults = [
      ...ruleFaults,
      ...conduct.faultsFor(body.txnId, body.instrument).filter((c) => !faultOf(ruleFaults, c.kind)),
    ];
    const pending = (status: 'PENDING' | 'REDIRECT'): BankPaymentResponse => ({
      txnId: body.txnId,
      amountPaise: body.amountPaise,
      status,
      responseCode: '09',
      responseDescription: describeCode('09'),
      bankRefNum: null,
      authCode: null,
    });
    const entry: PaymentEntry = {
      request: body,
      answer: pending('PENDING'),
      committedAt: null,
      requests: 1,
      inquiries: 0,
      awaitingPayer: false,
    };
    books.payments.set(body.txnId, entry);
    const decision = decidePayment(body.instrument, body.amountPaise);
    const silence = faultOf(requestFaults, 'silence');
    const late = faultOf(requestFaults, 'late');
    const lost = faultOf(requestFaults, 'lostCallback');

    if (decision.kind === 'redirect') {
      entry.answer = {
        ...pending('REDIRECT'),
        redirect: { url: `${baseUrl}/pages/pay/${encodeURIComponent(body.txnId)}`, method: 'GET', fields: {} },
      };
      entry.awaitingPayer = body.returnUrl !== undefined;
      // No browser behind this payment: the sandbox payer completes the bank page by itself.
      if (!entry.awaitingPayer && !silence) {
        later(late?.ms ?? payerDelayMs, () =>
          settlePayment(entry, decideRedirect(body.instrument), { callback: !lost, faults: requestFaults }),
        );
      }
      return entry.answer;
    }
    if (decision.kind === 'silent' || silence) return entry.answer;
    const onInquiry = faultOf(requestFaults, 'settleOnInquiry');
    if (onInquiry) {
      conduct.hold(body.txnId, onInquiry.afterMs, () =>
        settlePayment(entry, decision, { callback: true, faults: requestFaults }),
      );
      return entry.answer;
    }
    if (lost) {
      settlePayment(entry, decision, { callback: false, faults: requestFaults });
      return pending('PENDING');
    }
    if (late) {
      later(late.ms, () => settlePayment(entry, decision, { callback: true, faults: requestFaults }));
      return entry.answer;
    }
    entry.answer = paymentAnswer(entry, decision.approved, decision.code);
    entry.committedAt = new Date().toISOString();
    // Answered in the response: a callback only when a fault asks for copies of it.
    if (faultOf(requestFaults, 'duplicateCallback') || faultOf(requestFaults, 'outOfOrderCallback')) {
      notify(body.callbackUrl, paymentCallback(entry), requestFaults);
    }
    return entry.answer;
  }

  // ---------- refunds ----------

  function createRefund(body: z.infer<typeof refundRequestSchema>, requestFaults: Fault[]) {
    const existing = books.refunds.get(body.refundId);
    if (existing) {
      requireSame('refundId', existing.request, body, ['txnId', 'amountPaise']);
      existing.requests++;
      return existing.answer;
    }
    const refundable = books.refundableOf(body.txnId);
    const verdict =
      books.payments.get(body.txnId)?.answer.status === 'APPROVED'
        ? decideRefund(body.reason, body.amountPaise, refundable)
        : { approved: false, code: '05' as const };
    const rrn = referenceDigits(body.refundId).slice(0, 12);
    const final = {
      refundId: body.refundId,
      txnId: body.txnId,
      amountPaise: body.amountPaise,
      status: verdict.approved ? ('APPROVED' as const) : ('DECLINED' as const),
      responseCode: verdict.code,
      responseDescription: describeCode(verdict.code),
      rrn: verdict.approved ? rrn : null,
    };
    const entry: RefundEntry = {
      request: body,
      merchantIdentifier: books.merchantOf(body.txnId) ?? '',
      answer: {
        ...final,
        status: 'PENDING' as const,
        responseCode: '09' as const,
        responseDescription: describeCode('09'),
        rrn: null,
      },
      requests: 1,
    };
    // The amount is held from now on (PENDING counts against what may be refunded).
    books.refunds.set(body.refundId, entry);
    const delay = faultOf(requestFaults, 'late')?.ms ?? refundDelayMs;
    const settle = () => {
      if (faultOf(requestFaults, 'silence')) return;
      entry.answer = final;
      log(`refund ${body.refundId} ${final.status} (${body.amountPaise} paise of ${body.txnId})`);
      if (delay > 0 || faultOf(requestFaults, 'duplicateCallback') || faultOf(requestFaults, 'outOfOrderCallback')) {
        notify(
          body.callbackUrl,
          {
            type: 'refund',
            eventId: `evt-refund-${body.refundId}`,
            refundId: body.refundId,
            txnId: body.txnId,
            amountPaise: body.amountPaise,
            status: final.status,
            rrn: final.rrn,
          },
          requestFaults,
        );
      }
    };
    if (delay > 0 || faultOf(requestFaults, 'silence')) {
      later(delay, settle);
      return entry.answer;
    }
    settle();
    return entry.answer;
  }

  // ---------- mandates, notifications, debits ----------

  function createMandate(body: z.infer<typeof mandateRequestSchema>) {
    const existing = books.mandates.get(body.mandateId);
    if (existing) {
      requireSame('mandateId', existing.request, body, ['merchantIdentifier', 'payerVpa']);
      existing.requests++;
      return existing.answer;
    }
    const approved = decideMandate(body.payerVpa).approves;
    const code: BankResponseCode = approved ? '00' : '05';
    const answer = {
      mandateId: body.mandateId,
      status: approved ? ('APPROVED' as const) : ('DECLINED' as const),
      responseCode: code,
      responseDescription: describeCode(code),
    };
    books.mandates.set(body.mandateId, { request: body, answer, requests: 1 });
    log(`mandate ${body.mandateId} ${answer.status}`);
    return answer;
  }

  function notifyDebit(mandateId: string, body: z.infer<typeof notificationRequestSchema>) {
    const mandate = books.mandates.get(mandateId);
    if (!mandate) throw new HttpProblem(404, 'NOT_FOUND', `no mandate ${mandateId}`);
    const existing = books.notifications.get(body.notificationId);
    if (existing) {
      if (existing.mandateId !== mandateId || existing.amountPaise !== body.amountPaise) {
        throw new HttpProblem(409, 'IDEMPOTENCY_CONFLICT', `notificationId ${body.notificationId} was sent with other contents`);
      }
      existing.requests++;
      return existing.answer;
    }
    const accepted = mandate.answer.status === 'APPROVED' && decideMandate(mandate.request.payerVpa).acceptsNotify;
    const answer = {
      notificationId: body.notificationId,
      mandateId,
      status: accepted ? ('ACCEPTED' as const) : ('REFUSED' as const),
    };
    books.notifications.set(body.notificationId, {
      mandateId,
      amountPaise: body.amountPaise,
      executeAt: body.executeAt,
      answer,
      requests: 1,
    });
    return answer;
  }

  function createDebit(mandateId: string, body: z.infer<typeof debitRequestSchema>, requestFaults: Fault[]) {
    const mandate = books.mandates.get(mandateId);
    if (!mandate) throw new HttpProblem(404, 'NOT_FOUND', `no mandate ${mandateId}`);
    const existing = books.debits.get(body.debitId);
    if (existing) {
      requireSame('debitId', existing.request, body, ['merchantIdentifier', 'amountPaise']);
      if (existing.mandateId !== mandateId)
        throw new HttpProblem(409, 'IDEMPOTENCY_CONFLICT', `debitId ${body.debitId} belongs to another mandate`);
      existing.requests++;
      return existing.answer;
    }
    const verdict =
      mandate.answer.status === 'APPROVED'
        ? decideDebit(mandate.request.payerVpa, body.amountPaise)
        : { approved: false, code: '05' as const };
    const digits = referenceDigits(body.debitId);
    const final = {
      debitId: body.debitId,
      mandateId,
      amountPaise: body.amountPaise,
      status: verdict.approved ? ('APPROVED' as const) : ('DECLINED' as const),
      responseCode: verdict.code,
      responseDescription: describeCode(verdict.code),
      bankRefNum: verdict.approved ? digits.slice(0, 12) : null,
      authCode: verdict.approved ? digits.slice(12, 18) : null,
    };
    const entry: DebitEntry = {
      mandateId,
      request: body,
      answer: {
        ...final,
        status: 'PENDING' as const,
        responseCode: '09' as const,
        responseDescription: describeCode('09'),
        bankRefNum: null,
        authCode: null,
      },
      requests: 1,
    };
    books.debits.set(body.debitId, entry);
    const late = faultOf(requestFaults, 'late');
    const settle = () => {
      entry.answer = final;
      log(`debit ${body.debitId} ${final.status} (${body.amountPaise} paise under ${mandateId})`);
      if (late || faultOf(requestFaults, 'duplicateCallback') || faultOf(requestFaults, 'outOfOrderCallback')) {
        notify(
          body.callbackUrl,
          {
            type: 'debit',
            eventId: `evt-debit-${body.debitId}`,
            mandateId,
            debitId: body.debitId,
            amountPaise: body.amountPaise,
            status: final.status,
            bankRefNum: final.bankRefNum,
          },
          requestFaults,
        );
      }
    };
    if (faultOf(requestFaults, 'silence')) return entry.answer;
    if (late) {
      later(late.ms, settle);
      return entry.answer;
    }
    settle();
    return entry.answer;
  }

  // ---------- HTTP ----------

  const adminToken = o.adminToken ?? randomBytes(24).toString('base64url');
  const app = new Koa();
  app.use(simulatorGuard(adminToken));
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new HttpProblem(404, 'NOT_FOUND', `${ctx.method} ${ctx.path}`);
    } catch (e) {
      if (ctx.respond === false) return;
      if (e instanceof HttpProblem) {
        ctx.status = e.status;
        ctx.body = { error: e.error, message: e.message };
        return;
      }
      log(`internal error on ${ctx.method} ${ctx.path}: ${(e as Error).stack}`);
      ctx.status = 500;
      ctx.body = { error: 'UNAVAILABLE', message: 'internal error' };
    }
  });

  /** The protocol: signed requests only, validated against the schemas. */
  const readSigned = async <S extends z.ZodType>(ctx: Context, schema: S | null): Promise<z.infer<S>> => {
    let raw: Buffer = Buffer.alloc(0);
    if (ctx.method === 'POST') {
      if (!ctx.is('application/json')) throw new HttpProblem(400, 'BAD_REQUEST', 'expected Content-Type application/json');
      try {
        raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES });
      } catch {
        throw new HttpProblem(400, 'BAD_REQUEST', `the body could not be read (at most ${MAX_BODY_BYTES} bytes)`);
      }
    }
    const check = verifyBankSignature(
      o.secret,
      { timestamp: ctx.get(BANK_TIMESTAMP_HEADER) || undefined, signature: ctx.get(BANK_SIGNATURE_HEADER) || undefined },
      raw,
      new Date(),
    );
    if (!check.ok) throw new HttpProblem(401, 'BAD_SIGNATURE', `signature ${check.problem}`);
    if (!schema) return undefined as z.infer<S>;
    let value: unknown;
    try {
      value = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new HttpProblem(400, 'BAD_REQUEST', 'the body is not JSON');
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new HttpProblem(
        400,
        'BAD_REQUEST',
        parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
      );
    return parsed.data;
  };

  /** Runs one exchange through the transport faults: latency, 5xx before or after committing, a dropped connection. */
  async function exchange(ctx: Context, facts: RequestFacts, requestFaults: Fault[], commit: () => unknown): Promise<void> {
    const latency = faultOf(requestFaults, 'latency');
    if (latency) await sleep(latency.ms);
    const error = faultOf(requestFaults, 'error');
    const drop = faultOf(requestFaults, 'drop');
    if (error && !error.afterCommit) return void answerError(ctx, error.status);
    if (drop && !drop.afterCommit) return dropConnection(ctx);
    const answer = commit();
    if (error) return void answerError(ctx, error.status);
    if (drop) {
      log(`dropped the connection of ${facts.operation} ${facts.id} after committing`);
      return dropConnection(ctx);
    }
    ctx.body = answer;
  }

  const router = new Router();
  router.get('/health', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/openapi.json', (ctx) => {
    ctx.body = buildBankOpenApiDocument(baseUrl);
  });

  router.post('/v1/payments', async (ctx) => {
    const body = await readSigned(ctx, paymentRequestSchema);
    const facts = {
      operation: 'payment' as const,
      merchantIdentifier: body.merchantIdentifier,
      id: body.txnId,
      txnId: body.txnId,
    };
    const f = faults.take(facts);
    await exchange(ctx, facts, f, () => createPayment(body, f));
  });
  router.get('/v1/payments/:txnId', async (ctx) => {
    await readSigned(ctx, null);
    const txnId = ctx.params.txnId!;
    const entry = books.payments.get(txnId);
    const facts = {
      operation: 'paymentInquiry' as const,
      merchantIdentifier: entry?.request.merchantIdentifier,
      id: txnId,
      txnId,
    };
    const f = faults.take(facts);
    await exchange(ctx, facts, f, () => {
      if (!entry) throw new HttpProblem(404, 'NOT_FOUND', `no payment ${txnId}`);
      entry.inquiries++;
      return conduct.inquiryAnswer(entry, f, later);
    });
  });
  router.post('/v1/refunds', async (ctx) => {
    const body = await readSigned(ctx, refundRequestSchema);
    const facts = {
      operation: 'refund' as const,
      merchantIdentifier: books.merchantOf(body.txnId),
      id: body.refundId,
      txnId: body.txnId,
    };
    const f = faults.take(facts);
    await exchange(ctx, facts, f, () => createRefund(body, f));
  });
  router.get('/v1/refunds/:refundId', async (ctx) => {
    await readSigned(ctx, null);
    const refundId = ctx.params.refundId!;
    const entry = books.refunds.get(refundId);
    const facts = {
      operation: 'refundInquiry' as const,
      merchantIdentifier: entry?.merchantIdentifier,
      id: refundId,
      txnId: entry?.request.txnId,
    };
    await exchange(ctx, facts, faults.take(facts), () => {
      if (!entry) throw new HttpProblem(404, 'NOT_FOUND', `no refund ${refundId}`);
      return entry.answer;
    });
  });
  router.post('/v1/mandates', async (ctx) => {
    const body = await readSigned(ctx, mandateRequestSchema);
    const facts = { operation: 'mandate' as const, merchantIdentifier: body.merchantIdentifier, id: body.mandateId };
    await exchange(ctx, facts, faults.take(facts), () => createMandate(body));
  });
  router.get('/v1/mandates/:mandateId', async (ctx) => {
    await readSigned(ctx, null);
    const entry = books.mandates.get(ctx.params.mandateId!);
    if (!entry) throw new HttpProblem(404, 'NOT_FOUND', `no mandate ${ctx.params.mandateId}`);
    ctx.body = entry.answer;
  });
  router.post('/v1/mandates/:mandateId/notifications', async (ctx) => {
    const body = await readSigned(ctx, notificationRequestSchema);
    const mandateId = ctx.params.mandateId!;
    const facts = {
      operation: 'notification' as const,
      merchantIdentifier: books.mandates.get(mandateId)?.request.merchantIdentifier,
      id: body.notificationId,
    };
    await exchange(ctx, facts, faults.take(facts), () => notifyDebit(mandateId, body));
  });
  router.post('/v1/mandates/:mandateId/debits', async (ctx) => {
    const body = await readSigned(ctx, debitRequestSchema);
    const mandateId = ctx.params.mandateId!;
    const facts = { operation: 'debit' as const, merchantIdentifier: body.merchantIdentifier, id: body.debitId };
    const f = faults.take(facts);
    await exchange(ctx, facts, f, () => createDebit(mandateId, body, f));
  });
  router.get('/v1/mandates/:mandateId/debits/:debitId', async (ctx) => {
    await readSigned(ctx, null);
    const entry = books.debits.get(ctx.params.debitId!);
    const facts = {
      operation: 'debitInquiry' as const,
      merchantIdentifier: entry?.request.merchantIdentifier,
      id: ctx.params.debitId!,
    };
    await exchange(ctx, facts, faults.take(facts), () => {
      if (!entry || entry.mandateId !== ctx.params.mandateId)
        throw new HttpProblem(404, 'NOT_FOUND', `no debit ${ctx.params.debitId}`);
      return entry.answer;
    });
  });

  // The bank's page of a REDIRECT payment: the payer types the card (or approves at the bank) here.
  router.get('/pages/pay/:txnId', (ctx) => {
    const entry = books.payments.get(ctx.params.txnId!);
    html(ctx, entry ? 200 : 404, entry ? pageOf(entry) : resultPage('No such payment', 'This payment is not known to the bank.'));
  });
  router.post('/pages/pay/:txnId', async (ctx) => {
    const entry = books.payments.get(ctx.params.txnId!);
    if (!entry) return html(ctx, 404, resultPage('No such payment', 'This payment is not known to the bank.'));
    const form = new URLSearchParams((await getRawBody(ctx.req, { limit: 4096 }).catch(() => Buffer.alloc(0))).toString('utf8'));
    if (entry.answer.status === 'REDIRECT') {
      const cardNumber = form.get('cardNumber')?.replace(/\s+/g, '') || undefined;
      settlePayment(entry, decideRedirect(entry.request.instrument, { cardNumber, cancel: form.get('action') === 'cancel' }), {
        callback: true,
        faults: [],
      });
    }
    if (entry.request.returnUrl) {
      ctx.status = 303;
      return ctx.redirect(entry.request.returnUrl);
    }
    html(ctx, 200, pageOf(entry));
  });

  // Testers' controls: the books, faults, and the bank settling a payment on its own.
  router.get('/admin/books', (ctx) => {
    const merchant = typeof ctx.query.merchantIdentifier === 'string' ? ctx.query.merchantIdentifier : undefined;
    ctx.body = books.snapshot(merchant);
  });
  router.get('/admin/faults', (ctx) => {
    ctx.body = { faults: faults.list() };
  });
  router.post('/admin/faults', async (ctx) => {
    const parsed = faultRuleSchema.safeParse(await readAdminJson(ctx));
    if (!parsed.success)
      throw new HttpProblem(
        400,
        'BAD_REQUEST',
        parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '),
      );
    ctx.status = 201;
    ctx.body = faults.add(parsed.data);
  });
  router.delete('/admin/faults', (ctx) => {
    faults.remove();
    ctx.status = 204;
  });
  router.delete('/admin/faults/:id', (ctx) => {
    faults.remove(ctx.params.id);
    ctx.status = 204;
  });
  router.post('/admin/payments/:txnId/settle', async (ctx) => {
    const body = z
      .strictObject({ approved: z.boolean(), callback: z.boolean().default(true) })
      .safeParse(await readAdminJson(ctx));
    if (!body.success) throw new HttpProblem(400, 'BAD_REQUEST', 'expected {approved: boolean, callback?: boolean}');
    const entry = books.payments.get(ctx.params.txnId!);
    if (!entry) throw new HttpProblem(404, 'NOT_FOUND', `no payment ${ctx.params.txnId}`);
    const changed = settlePayment(
      entry,
      { approved: body.data.approved, code: body.data.approved ? '00' : '05' },
      { callback: body.data.callback, faults: [] },
    );
    ctx.body = { changed, payment: entry.answer };
  });
  router.post('/admin/callbacks', async (ctx) => {
    // Sends any callback, signed or not: for tests of forged and stale callbacks.
    const body = z.strictObject({ url: z.url(), callback: bankCallbackSchema }).safeParse(await readAdminJson(ctx));
    if (!body.success) throw new HttpProblem(400, 'BAD_REQUEST', body.error.message);
    sendCallback(body.data.url, body.data.callback, 'final');
    ctx.status = 202;
    ctx.body = { sent: true };
  });
  payoutRoutes(router, {
    payouts,
    faults,
    readSigned,
    exchange,
    later,
    notFound: (m) => new HttpProblem(404, 'NOT_FOUND', m),
    conflict: (m) => new HttpProblem(409, 'IDEMPOTENCY_CONFLICT', m),
  });
  hostileRoutes(router, {
    books,
    conduct,
    readJson: readAdminJson,
    settlePayment,
    problem: (m) => new HttpProblem(400, 'BAD_REQUEST', m),
  });
  router.post('/admin/reset', (ctx) => {
    books.clear();
    payouts.clear();
    faults.remove();
    conduct.clear();
    ctx.status = 204;
  });
  app.use(router.routes());
  app.use(router.allowedMethods());

  function pageOf(entry: PaymentEntry): string {
    const a = entry.answer;
    if (a.status === 'APPROVED' || a.status === 'DECLINED') {
      return resultPage(
        a.status === 'APPROVED' ? 'Payment approved' : 'Payment declined',
        `${a.responseDescription}. Reference ${a.txnId}.`,
        entry.request.returnUrl,
      );
    }
    return bankPage({ txnId: a.txnId, amountPaise: a.amountPaise, instrument: entry.request.instrument });
  }

  const server = http.createServer(app.callback());
  server.listen(listen.port ?? 0, listen.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  if (!baseUrl) baseUrl = url;

  return {
    url,
    adminToken,
    books,
    payouts,
    faults,
    conduct,
    server,
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    async settled() {
      while (inFlight.size > 0 || timers.size > 0) {
        await Promise.all([...inFlight]);
        if (timers.size > 0) await sleep(50);
      }
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function requireSame<T extends Record<string, unknown>>(idName: string, first: T, again: T, keys: (keyof T)[]) {
  for (const k of keys) {
    if (JSON.stringify(first[k]) !== JSON.stringify(again[k])) {
      throw new HttpProblem(409, 'IDEMPOTENCY_CONFLICT', `${idName} was sent before with another ${String(k)}`);
    }
  }
}

async function readAdminJson(ctx: Context): Promise<unknown> {
  try {
    const raw = await getRawBody(ctx.req, { limit: MAX_BODY_BYTES });
    return raw.length ? JSON.parse(raw.toString('utf8')) : {};
  } catch {
    throw new HttpProblem(400, 'BAD_REQUEST', 'the body is not JSON');
  }
}

function answerError(ctx: Context, status: number) {
  ctx.status = status;
  ctx.body = { error: 'UNAVAILABLE', message: 'the bank is temporarily unavailable (simulated)' };
}

function dropConnection(ctx: Context) {
  ctx.respond = false;
  ctx.req.socket.destroy();
}

function html(ctx: Context, status: number, page: string) {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
