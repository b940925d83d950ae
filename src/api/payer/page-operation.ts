import type { ApiDeps } from '../deps';
import { hostedPageLimit } from '../middleware/abuse-limits';
import { browserPage, type BrowserPageRequest } from '../browser-page';
import { perApp, type DeclaredOperation, type HeadersAuthScheme, type OperationLimit } from '../operation';

/** A payer's page request: the caller is the page's token; a form's body its fields, or null where unreadable. */
export type PageRequest = BrowserPageRequest<string>;

/** No credentials but the page's token in its address (the payer's capability), whose budget the page limit counts. */
const pageToken: HeadersAuthScheme<string> = {
  from: 'headers',
  authenticate: (ctx) => Promise.resolve(String((ctx.params as Record<string, string | undefined>).token ?? '')),
  limitKey: (token) => token,
};

/** Per token and per client address, one budget for every page of the app (the limiters built once). */
const pageLimiter = perApp((deps: ApiDeps) =>
  hostedPageLimit(deps.rateLimit, {
    perToken: deps.config.limits.pageRequestsPerTokenPerMinute,
    perAddress: deps.config.limits.pageRequestsPerAddressPerMinute,
  }),
);

const pageLimit: OperationLimit = {
  counted: 'authenticated',
  build: (deps) => {
    const count = pageLimiter(deps);
    return async (ctx, token) => {
      await count(ctx, token);
      return null;
    };
  },
};

/**
 * A payer's page or one of its forms as a declared operation: anyone may ask (the token in the
 * address is the capability), the page limit counted first, a form's fields read leniently (the
 * page says when they cannot be read), its answers pages and redirects. Errors thrown (the limit's
 * 429) speak the default envelope.
 */
export function payerPage(o: {
  method: 'get' | 'post';
  path: string;
  handle: (request: PageRequest, deps: ApiDeps) => Promise<unknown>;
}): DeclaredOperation {
  return browserPage({ ...o, auth: pageToken, limit: pageLimit });
}
