import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { BankResponseCode } from '../protocol';
import type { PaymentEntry, SimulatorBooks } from './books';
import { conductSettingsSchema, type BankConductTable } from './conduct';
import type { Fault } from './faults';
import { describeCode } from './outcomes';

/**
 * Testers' controls of the hostile bank (loopback, unsigned like the rest of /admin):
 *   GET/PUT /admin/conduct      the random share of hostile conducts and the seed of every random choice
 *   POST /admin/intents/pay     a payer pays a UPI intent or QR in their own app, whatever the gateway's
 *                               page became meanwhile (cancelled, expired): the bank approves and calls back
 */
export interface HostileRouteDeps {
  books: SimulatorBooks;
  conduct: BankConductTable;
  readJson: (ctx: Context) => Promise<unknown>;
  settlePayment: (
    entry: PaymentEntry,
    verdict: { approved: boolean; code: BankResponseCode },
    o: { callback: boolean; faults: Fault[] },
  ) => boolean;
  problem: (message: string) => Error;
}

const intentPaymentSchema = z.strictObject({
  txnId: z.string().min(1).max(64),
  merchantIdentifier: z.string().min(1).max(64),
  orderId: z.string().min(1).max(64),
  amountPaise: z.number().int().positive(),
  callbackUrl: z.url(),
  vpa: z.string().min(3).max(255).default('success@sandbox'),
  qr: z.boolean().default(false),
});

export function hostileRoutes(router: Router, d: HostileRouteDeps): void {
  router.get('/admin/conduct', (ctx) => {
    ctx.body = d.conduct.current();
  });
  router.put('/admin/conduct', async (ctx) => {
    const parsed = conductSettingsSchema.safeParse(await d.readJson(ctx));
    if (!parsed.success) throw d.problem('expected {seed?: integer 0..2^32-1, share?: 0..1}');
    ctx.body = d.conduct.configure(parsed.data);
  });
  router.post('/admin/intents/pay', async (ctx) => {
    const parsed = intentPaymentSchema.safeParse(await d.readJson(ctx));
    if (!parsed.success) throw d.problem(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    const p = parsed.data;
    let entry = d.books.payments.get(p.txnId);
    if (!entry) {
      entry = {
        request: {
          txnId: p.txnId,
          merchantIdentifier: p.merchantIdentifier,
          orderId: p.orderId,
          amountPaise: p.amountPaise,
          instrument: { type: 'UPI_INTENT', vpa: p.vpa, qr: p.qr },
          callbackUrl: p.callbackUrl,
        },
        answer: {
          txnId: p.txnId,
          amountPaise: p.amountPaise,
          status: 'PENDING',
          responseCode: '09',
          responseDescription: describeCode('09'),
          bankRefNum: null,
          authCode: null,
        },
        committedAt: null,
        requests: 0,
        inquiries: 0,
        awaitingPayer: false,
      };
      d.books.payments.set(p.txnId, entry);
    }
    const changed = d.settlePayment(entry, { approved: true, code: '00' }, { callback: true, faults: [] });
    ctx.status = changed ? 201 : 200;
    ctx.body = { changed, payment: entry.answer };
  });
}
