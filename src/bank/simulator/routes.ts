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
} from '../protocol';
import { buildBankOpenApiDocument } from '../openapi';
import { BANK_SIGNATURE_HEADER, BANK_TIMESTAMP_HEADER, signBankAnswer, verifyBankSignature } from '../signing';
import type { PaymentEntry } from './books';
import { simulatorGuard } from './admin-guard';
import { HttpProblem, sleep, type SimulatorDesk } from './desk';
import { faultOf, faultRuleSchema, type Fault, type RequestFacts } from './faults';
import { hostileRoutes } from './hostile-routes';
import { payoutRoutes, type PayoutEntry } from './payouts';
import type { MandateDesk } from './mandates';
import { decideRedirect } from './outcomes';
import { bankPage, resultPage } from './pages';
import type { PaymentDesk } from './payments';
import type { RefundDesk } from './refunds';

const MAX_BODY_BYTES = 65_536;

/**
 * The simulator's HTTP face: the protocol (/v1, signed both ways, through the transport faults),
 * the bank's pages of REDIRECT payments (/pages) and the testers' controls (/admin, admin-guard.ts).
 */
export function simulatorApp(s: {
  secret: string;
  adminToken: string;
  desk: SimulatorDesk;
  payments: PaymentDesk;
  refunds: RefundDesk;
  mandates: MandateDesk;
  payouts: Map<string, PayoutEntry>;
  sendCallback: (url: string, callback: BankCallback, kind: 'final') => void;
}): Koa {
  const { secret: simulatorSecret, adminToken, desk, sendCallback } = s;
  const { books, conduct, faults, log, later } = desk;
  const { settlePayment, createPayment } = s.payments;
  const { createRefund } = s.refunds;
  const { createMandate, notifyDebit, createDebit } = s.mandates;

  const app = new Koa();
  // Every answer is signed over the request it answers (signBankAnswer): the gateway reads no other.
  app.use(async (ctx, next) => {
    await next();
    if (ctx.respond === false) return;
    const body: unknown = ctx.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !Buffer.isBuffer(body)) {
      ctx.body = JSON.stringify(body);
      ctx.type = 'application/json';
    }
    const raw = typeof ctx.body === 'string' || Buffer.isBuffer(ctx.body) ? ctx.body : '';
    ctx.set(signBankAnswer(simulatorSecret, ctx.get(BANK_SIGNATURE_HEADER), raw, new Date()));
  });
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
      simulatorSecret,
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
    ctx.body = buildBankOpenApiDocument(desk.baseUrl());
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
    const txnId = ctx.params.txnId;
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
    const refundId = ctx.params.refundId;
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
    const entry = books.mandates.get(ctx.params.mandateId);
    if (!entry) throw new HttpProblem(404, 'NOT_FOUND', `no mandate ${ctx.params.mandateId}`);
    ctx.body = entry.answer;
  });
  router.post('/v1/mandates/:mandateId/notifications', async (ctx) => {
    const body = await readSigned(ctx, notificationRequestSchema);
    const mandateId = ctx.params.mandateId;
    const facts = {
      operation: 'notification' as const,
      merchantIdentifier: books.mandates.get(mandateId)?.request.merchantIdentifier,
      id: body.notificationId,
    };
    await exchange(ctx, facts, faults.take(facts), () => notifyDebit(mandateId, body));
  });
  router.post('/v1/mandates/:mandateId/debits', async (ctx) => {
    const body = await readSigned(ctx, debitRequestSchema);
    const mandateId = ctx.params.mandateId;
    const facts = { operation: 'debit' as const, merchantIdentifier: body.merchantIdentifier, id: body.debitId };
    const f = faults.take(facts);
    await exchange(ctx, facts, f, () => createDebit(mandateId, body, f));
  });
  router.get('/v1/mandates/:mandateId/debits/:debitId', async (ctx) => {
    await readSigned(ctx, null);
    const entry = books.debits.get(ctx.params.debitId);
    const facts = {
      operation: 'debitInquiry' as const,
      merchantIdentifier: entry?.request.merchantIdentifier,
      id: ctx.params.debitId,
    };
    await exchange(ctx, facts, faults.take(facts), () => {
      if (!entry || entry.mandateId !== ctx.params.mandateId)
        throw new HttpProblem(404, 'NOT_FOUND', `no debit ${ctx.params.debitId}`);
      return entry.answer;
    });
  });

  // The bank's page of a REDIRECT payment: the payer types the card (or approves at the bank) here.
  router.get('/pages/pay/:txnId', (ctx) => {
    const entry = books.payments.get(ctx.params.txnId);
    html(ctx, entry ? 200 : 404, entry ? pageOf(entry) : resultPage('No such payment', 'This payment is not known to the bank.'));
  });
  router.post('/pages/pay/:txnId', async (ctx) => {
    const entry = books.payments.get(ctx.params.txnId);
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
    const entry = books.payments.get(ctx.params.txnId);
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
    payouts: s.payouts,
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
    s.payouts.clear();
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

  return app;
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
