import http from 'node:http';
import type { AddressInfo } from 'node:net';
import escapeHtml from 'escape-html';
import { returnVerifies, type Pairs } from './checkout';

/**
 * A merchant's web site on loopback, as Zaakpay's kits make one: `GET /shop/<name>` serves a page
 * whose form posts a signed checkout request to the gateway (`forms` says what each carries), and
 * `POST /response` is the returnUrl, which verifies the posted checksum with the merchant's own
 * code (written from the rulings in docs/contributors/design.md) and shows what arrived.
 */
export interface ReturnPost {
  url: string;
  fields: Pairs;
  verified: boolean;
}

export async function startMerchantSite(secretKey: string, kind: 'V8' | 'V7' | 'legacy' = 'V8') {
  const forms = new Map<string, { action: string; fields: Pairs }>();
  const posts: ReturnPost[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://merchant');
      const shop = /^\/shop\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && shop && forms.has(shop[1]!)) {
        const form = forms.get(shop[1]!)!;
        const inputs = form.fields
          .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
          .join('');
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><title>Chai Point</title><h1>Your cart</h1><form method="post" action="${escapeHtml(form.action)}">${inputs}<button id="pay-now">Pay now</button></form>`,
          );
        return;
      }
      if (req.method === 'POST' && url.pathname === '/response') {
        const fields = [...new URLSearchParams(Buffer.concat(chunks).toString('utf8'))];
        const verified = returnVerifies(secretKey, kind, fields);
        posts.push({ url: req.url ?? '', fields, verified });
        const rows = fields.map(
          ([k, v]) => `<tr><td>${escapeHtml(k)}</td><td id="f-${escapeHtml(k)}">${escapeHtml(v)}</td></tr>`,
        );
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            `<!doctype html><title>Order result</title><h1 id="verified">${verified ? 'checksum verified' : 'checksum MISMATCH'}</h1><table>${rows.join('')}</table>`,
          );
        return;
      }
      res.writeHead(404).end('not found');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    returnUrl: `${base}/response`,
    posts,
    /** Serves a cart page whose form posts `fields` to `action`; returns its address. */
    shop(name: string, action: string, fields: Pairs): string {
      forms.set(name, { action, fields });
      return `${base}/shop/${name}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
