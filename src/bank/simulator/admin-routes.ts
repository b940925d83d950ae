import type Router from '@koa/router';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { z } from 'zod';
import { bankCallbackSchema, type BankCallback } from '../protocol';
import type { PaymentEntry } from './books';
import { HttpProblem, type SimulatorDesk } from './desk';
import { faultRuleSchema } from './faults';
import { decideRedirect } from './outcomes';
import { bankPage, resultPage } from './pages';
import type { PaymentDesk } from './payments';
import { readAdminJson } from './protocol-exchange';

/** The bank's pages of REDIRECT payments (/pages). */
export function bankPageRoutes(router: Router, books: SimulatorDesk['books'], settlePayment: PaymentDesk['settlePayment']): void {
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
}

/** Testers' controls (/admin): the books, faults, the bank settling a payment on its own, any callback. */
export function adminRoutes(
  router: Router,
  d: Pick<SimulatorDesk, 'books' | 'faults'> & {
    settlePayment: PaymentDesk['settlePayment'];
    sendCallback: (url: string, callback: BankCallback, kind: 'final') => void;
  },
): void {
  const { books, faults, settlePayment, sendCallback } = d;
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
}

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

function html(ctx: Context, status: number, page: string) {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = page;
}
