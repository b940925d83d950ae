import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';

/**
 * Every answer of the simulator says it is one (`X-Bank-Simulator: sandbox`), so a production
 * gateway pointed at it refuses to start and refuses its answers (src/bank/simulator-marker.ts).
 */
export const SIMULATOR_MARKER_HEADER = 'x-bank-simulator';
export const SIMULATOR_MARKER_VALUE = 'sandbox';

/**
 * The testers' controls (/admin/*) settle payments and list every payer's VPA: they take the
 * simulator's admin token as `Authorization: Bearer <token>`; anything else is 401, before any
 * body is read. The router matches paths without regard to case, so the guard does too (`/ADMIN/books`
 * reaches the same route).
 */
export function simulatorGuard(adminToken: string) {
  const expected = digest(adminToken);
  return async (ctx: Context, next: Next) => {
    ctx.set(SIMULATOR_MARKER_HEADER, SIMULATOR_MARKER_VALUE);
    const path = ctx.path.toLowerCase();
    if (path === '/admin' || path.startsWith('/admin/')) {
      const match = /^Bearer (.+)$/.exec(ctx.get('authorization'));
      if (!match || !timingSafeEqual(digest(match[1]), expected)) {
        ctx.status = 401;
        ctx.set('WWW-Authenticate', 'Bearer');
        ctx.body = {
          error: 'BAD_SIGNATURE',
          message: "the admin routes take the simulator's admin token (Authorization: Bearer)",
        };
        return;
      }
    }
    await next();
  };
}

const digest = (s: string) => createHash('sha256').update(s).digest();
