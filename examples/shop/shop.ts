import express from 'express';
import {
  autoSubmitFormHtml,
  escapeHtml,
  gatewayWebhookExpress,
  GatewayClient,
  isRealtimeTxn,
  SignatureVerificationError,
  signCustomCheckout,
  verifyCheckoutReturn,
  WEBHOOK_ACKNOWLEDGEMENT,
  type GatewayClientOptions,
  type LedgerTransaction,
} from '@gateway/merchant-sdk';

/**
 * A small shop built only on the merchant SDK: sells one product through the gateway's hosted
 * checkout, takes the signed return and the webhook, shows an order's status from the status API,
 * refunds it, and downloads the day's ledger as CSV. Orders live in memory: it is an example.
 */
export interface ShopOptions extends GatewayClientOptions {
  /** Where this shop is reached by the payer's browser (for the returnUrl). */
  shopUrl: string;
  /** The webhook signing secret (whsec_...), to check the Standard Webhooks signature too. */
  webhookSigningSecret?: string;
}

interface Order {
  orderId: string;
  amountPaise: number;
  /** What the signed return said, and whether a verified webhook arrived. */
  returned?: { responseCode: string; responseDescription: string };
  webhook?: { responseCode: string; receivedAt: string };
}

const PRODUCT = { name: 'Masala chai, 1 kg', amountPaise: 90_000 };
const rupees = (paise: number | string) => `₹${(Number(paise) / 100).toFixed(2)}`;
const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
/** Today in IST, yyyy-MM-dd: the gateway's ledger days are IST days. */
const istToday = () => new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10);

export function createShop(options: ShopOptions): express.Express {
  const gateway = new GatewayClient(options);
  const orders = new Map<string, Order>();
  const app = express();

  // The webhook route verifies the raw body itself: it works whatever parsers the app mounts (see the SDK README).
  app.use(express.urlencoded({ extended: false }));

  app.get('/', (_req, res) => {
    res.send(
      page(
        'Chai Shop',
        `<p id="product">${PRODUCT.name}: ${rupees(PRODUCT.amountPaise)}</p>
<form method="post" action="/orders"><label>Email <input name="email" value="asha@example.com"></label>
<button id="buy" type="submit">Buy now</button></form>
<p><a id="ledger" href="/ledger.csv">Today's ledger (CSV)</a></p>`,
      ),
    );
  });

  // A new order, and the auto-submitting form that takes the payer to the gateway's hosted checkout.
  app.post('/orders', (req, res) => {
    const orderId = `shop-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    orders.set(orderId, { orderId, amountPaise: PRODUCT.amountPaise });
    const form = signCustomCheckout(options.baseUrl, options.secretKey, {
      merchantIdentifier: options.merchantIdentifier,
      returnUrl: `${options.shopUrl}/return`,
      orderDetail: {
        orderId,
        amount: String(PRODUCT.amountPaise),
        currency: 'INR',
        productDescription: PRODUCT.name,
        email: String(req.body?.email ?? ''),
      },
    });
    res.type('html').send(autoSubmitFormHtml(form));
  });

  // The payer's browser comes back with the signed result.
  app.post('/return', (req, res) => {
    try {
      const result = verifyCheckoutReturn(options.secretKey, req.body as Record<string, string>);
      const order = orders.get(result.orderId);
      if (!order) return res.status(404).send(page('Unknown order', ''));
      order.returned = { responseCode: result.responseCode, responseDescription: result.responseDescription };
      return res.redirect(303, `/orders/${encodeURIComponent(order.orderId)}`);
    } catch (e) {
      if (e instanceof SignatureVerificationError)
        return res.status(400).send(page('Refused', '<p>The payment result was not signed by the gateway.</p>'));
      throw e;
    }
  });

  app.post(
    '/webhooks/gateway',
    gatewayWebhookExpress({ secretKey: options.secretKey, signingSecret: options.webhookSigningSecret }),
    (req, res) => {
      const { txnData } = (req as unknown as { gatewayWebhook: import('@gateway/merchant-sdk').VerifiedWebhook }).gatewayWebhook;
      for (const txn of txnData.txns) {
        const order = orders.get(isRealtimeTxn(txn) ? txn.orderId : txn.orderid);
        if (order)
          order.webhook = { responseCode: isRealtimeTxn(txn) ? txn.responseCode : '100', receivedAt: new Date().toISOString() };
      }
      res.type('text').send(WEBHOOK_ACKNOWLEDGEMENT);
    },
  );

  // The order as the gateway sees it (status API), with what the return and the webhook said.
  app.get('/orders/:orderId', async (req, res) => {
    const order = orders.get(req.params.orderId);
    if (!order) return res.status(404).send(page('Unknown order', ''));
    const status = await gateway.status(order.orderId);
    const record = status.data.orders[0];
    const refunds = (record?.refundDetails ?? []).map(
      (r) => `<li>${escapeHtml(r.merchantRefId)}: ${rupees(r.amount)} ${escapeHtml(r.refundStatus)}</li>`,
    );
    return res.send(
      page(
        `Order ${order.orderId}`,
        `<p>Amount: ${rupees(order.amountPaise)}</p>
<p>Payment: <span id="payment">${escapeHtml(record?.responseDescription ?? 'not paid')}</span> (txnStatus <span id="txn-status">${escapeHtml(record?.txnStatus ?? '')}</span>)</p>
<p>Return: <span id="returned">${order.returned ? escapeHtml(order.returned.responseCode) : 'none'}</span></p>
<p>Webhook: <span id="webhook">${order.webhook ? `received ${escapeHtml(order.webhook.responseCode)}` : 'not yet'}</span></p>
<ul id="refunds">${refunds.join('')}</ul>
<form method="post" action="/orders/${encodeURIComponent(order.orderId)}/refund"><button id="refund" type="submit">Refund in full</button></form>
<p><a href="/orders/${encodeURIComponent(order.orderId)}" id="reload">Reload</a> · <a href="/ledger.csv">Today's ledger (CSV)</a></p>`,
      ),
    );
  });

  app.post('/orders/:orderId/refund', async (req, res) => {
    const order = orders.get(req.params.orderId);
    if (!order) return res.status(404).send(page('Unknown order', ''));
    const answer = await gateway.refund({
      orderId: order.orderId,
      updateReason: 'customer request',
      merchantRefId: `${order.orderId}-r1`,
    });
    if (answer.responseCode !== '230') {
      return res
        .status(409)
        .send(
          page(
            'Refund refused',
            `<p id="refused">${escapeHtml(answer.responseCode)} ${escapeHtml(answer.responseDescription)}</p>`,
          ),
        );
    }
    return res.redirect(303, `/orders/${encodeURIComponent(order.orderId)}`);
  });

  // Every transaction of today (IST), page after page, as CSV.
  app.get('/ledger.csv', async (_req, res) => {
    const day = istToday();
    const columns = ['orderId', 'txnId', 'status', 'amountInRupees', 'paymentSource', 'txnInitiatedDate'] as const;
    const rows: string[] = [columns.join(',')];
    for await (const t of gateway.ledger({ startDateTime: day, endDateTime: day, status: 'ALL', pageSize: 100 })) {
      rows.push(columns.map((c) => csvCell((t as LedgerTransaction)[c])).join(','));
    }
    res
      .type('text/csv')
      .attachment(`ledger-${day}.csv`)
      .send(`${rows.join('\n')}\n`);
  });

  return app;
}

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
