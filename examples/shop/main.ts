import { createShop } from './shop';

/**
 * Runs the example shop: `GATEWAY_URL=... MERCHANT_ID=... SECRET_KEY=... API_KEY=... node --import tsx examples/shop/main.ts`
 * (credentials from `npm run cli -- merchant create`); point the merchant's webhook URL at
 * `<SHOP_URL>/webhooks/gateway`.
 */
const env = (name: string, fallback?: string) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined) throw new Error(`set ${name}`);
  return v;
};
const port = Number(env('PORT', '4000'));
createShop({
  baseUrl: env('GATEWAY_URL', 'http://127.0.0.1:3000'),
  merchantIdentifier: env('MERCHANT_ID'),
  secretKey: env('SECRET_KEY'),
  apiKey: env('API_KEY'),
  shopUrl: env('SHOP_URL', `http://127.0.0.1:${port}`),
  ...(process.env.WEBHOOK_SIGNING_SECRET ? { webhookSigningSecret: process.env.WEBHOOK_SIGNING_SECRET } : {}),
}).listen(port, () => console.log(`shop on http://127.0.0.1:${port}`));
