import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import {
  debitRequestSchema,
  mandateRequestSchema,
  notificationRequestSchema,
  paymentRequestSchema,
  refundRequestSchema,
  type BankCallback,
} from '../protocol';
import { buildBankOpenApiDocument } from '../openapi';
import { BANK_SIGNATURE_HEADER, signBankAnswer } from '../signing';
import { simulatorGuard } from './admin-guard';
import { adminRoutes, bankPageRoutes } from './admin-routes';
import { HttpProblem, type SimulatorDesk } from './desk';
import { hostileRoutes } from './hostile-routes';
import { payoutRoutes, type PayoutEntry } from './payouts';
import type { MandateDesk } from './mandates';
import type { PaymentDesk } from './payments';
import { readAdminJson, signedExchange, type SignedExchange } from './protocol-exchange';
import type { RefundDesk } from './refunds';

export interface SimulatorParts {
  secret: string;
  adminToken: string;
  desk: SimulatorDesk;
  payments: PaymentDesk;
  refunds: RefundDesk;
  mandates: MandateDesk;
  payouts: Map<string, PayoutEntry>;
  sendCallback: (url: string, callback: BankCallback, kind: 'final') => void;
}

/**
 * The simulator's HTTP face: the protocol (/v1, signed both ways, through the transport faults),
 * the bank's pages of REDIRECT payments (/pages) and the testers' controls (/admin, admin-guard.ts).
 */
export function simulatorApp(s: SimulatorParts): Koa {
  const { desk } = s;
  const { books, conduct, faults, later } = desk;
  const { settlePayment } = s.payments;

  const app = new Koa();
  app.use(signedAnswers(s.secret));
  app.use(simulatorGuard(s.adminToken));
  app.use(problemAnswers(desk.log));

  const io = signedExchange(s.secret, desk.log);
  const router = new Router();
  router.get('/health', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/openapi.json', (ctx) => {
    ctx.body = buildBankOpenApiDocument(desk.baseUrl());
  });
  paymentAndRefundRoutes(router, s, io);
  mandateRoutes(router, s, io);
  bankPageRoutes(router, books, settlePayment);
  adminRoutes(router, { books, faults, settlePayment, sendCallback: s.sendCallback });
  payoutRoutes(router, {
    payouts: s.payouts,
    faults,
    readSigned: io.readSigned,
    exchange: io.exchange,
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
  return app;
}

/** Every answer is signed over the request it answers (signBankAnswer): the gateway reads no other. */
function signedAnswers(simulatorSecret: string): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.respond === false) return;
    const body: unknown = ctx.body;
    if (body !== undefined && body !== null && typeof body !== 'string' && !Buffer.isBuffer(body)) {
      ctx.body = JSON.stringify(body);
      ctx.type = 'application/json';
    }
    const raw = typeof ctx.body === 'string' || Buffer.isBuffer(ctx.body) ? ctx.body : '';
    ctx.set(signBankAnswer(simulatorSecret, ctx.get(BANK_SIGNATURE_HEADER), raw, new Date()));
  };
}

/** A problem (HttpProblem, an unknown route, an error) answered in the protocol's error shape. */
function problemAnswers(log: (line: string) => void): Middleware {
  return async (ctx, next) => {
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
  };
}

/** Payments and refunds (/v1/payments, /v1/refunds) and their inquiries. */
function paymentAndRefundRoutes(router: Router, s: SimulatorParts, { readSigned, exchange }: SignedExchange): void {
  const { books, conduct, faults, later } = s.desk;
  const { createPayment } = s.payments;
  const { createRefund } = s.refunds;
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
}

/** Mandates, their debit notifications and their debits (/v1/mandates). */
function mandateRoutes(router: Router, s: SimulatorParts, { readSigned, exchange }: SignedExchange): void {
  const { books, faults } = s.desk;
  const { createMandate, notifyDebit, createDebit } = s.mandates;
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
}
