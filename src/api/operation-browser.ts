import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { fromOurOrigin } from './hosted-page';

/**
 * What a person's browser sends besides the body, for pages and their forms (the handler's
 * `browser`), read only when asked: its cookies, whether its origin is ours, a nonce for the page.
 */
export interface BrowserRequest {
  /** A cookie the request carries. */
  cookie(name: string): string | undefined;
  /** No other origin sent it: an Origin header, when sent, is the gateway's own ('null' never is). */
  fromOurOrigin(): boolean;
  /** A fresh random value of this request (the same each time it is asked), for a page's CSP nonce. */
  nonce(): string;
}

export function browserOf(ctx: Context, publicOrigin: string): BrowserRequest {
  let nonce: string | undefined;
  return {
    cookie: (name) => ctx.cookies.get(name),
    fromOurOrigin: () => fromOurOrigin(ctx, publicOrigin),
    nonce: () => (nonce ??= randomBytes(16).toString('base64')),
  };
}

/**
 * A cookie an answer sets: always overwriting one of its name and path, and Secure whenever the
 * request came over https (directly, or through a proxy the gateway trusts).
 */
export interface AnswerCookie {
  name: string;
  value: string;
  path: string;
  sameSite: 'strict' | 'lax';
  httpOnly: boolean;
  /** How long it lasts (ms); null clears it (expired at once); absent, until the browser closes. */
  maxAgeMs?: number | null;
  /** Secure over plain HTTP too: the gateway reached over https through a proxy it was not told to trust. */
  alwaysSecure?: boolean;
}

/** Any answer (a page, a redirect) that also sets cookies: they are set before the answer is written. */
export class WithCookies {
  constructor(
    readonly answer: unknown,
    readonly cookies: readonly AnswerCookie[],
  ) {}
}

export function setCookies(ctx: Context, cookies: readonly AnswerCookie[]): void {
  for (const c of cookies) {
    const secure = ctx.secure || c.alwaysSecure === true;
    // Koa's cookies refuse to send a Secure cookie over a connection they do not see as secure.
    if (secure && !ctx.secure) (ctx.cookies as unknown as { secure: boolean }).secure = true;
    ctx.cookies.set(c.name, c.value, {
      httpOnly: c.httpOnly,
      sameSite: c.sameSite,
      path: c.path,
      overwrite: true,
      secure,
      ...(c.maxAgeMs === null ? { expires: new Date(0) } : c.maxAgeMs ? { maxAge: c.maxAgeMs } : {}),
    });
  }
}
