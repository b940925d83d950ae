import type { Context, Next } from 'koa';

/** What Temporal UI's codec client sends: JSON, the namespace, and the bearer token when it passes one. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Namespace';

/**
 * Cross-origin access for browsers on the listed origins only (Temporal UI calling the codec
 * endpoint). A preflight (OPTIONS, which browsers send without credentials) is answered here,
 * before any authentication; for any other origin it carries no CORS header, so the browser
 * refuses the call. Credentials are allowed, for a UI set to include cross-origin credentials.
 */
export function corsFor(origins: readonly string[], methods: string) {
  return async (ctx: Context, next: Next) => {
    ctx.vary('Origin');
    const origin = ctx.get('origin');
    const allowed = origin !== '' && origins.includes(origin);
    if (allowed) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Allow-Credentials', 'true');
    }
    if (ctx.method !== 'OPTIONS') return next() as Promise<void>;
    if (allowed) {
      ctx.set('Access-Control-Allow-Methods', methods);
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
    }
    ctx.status = 204;
  };
}
