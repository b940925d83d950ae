import Koa from 'koa';
import type { AudienceModule, Listener } from './audience';
import type { ApiDeps } from './deps';
import { AUDIENCES } from './audiences';
import { authFailureLimit } from './middleware/abuse-limits';
import { errorEnvelope } from './middleware/errors';
import { followTestServerClock } from './middleware/test-server-clock';
import { observe } from './middleware/observe';
import { mountedOn, selects, switchedOn } from './operation';
import { operationsRouter } from './operation-pipeline';
import type { OperationRefusals, RefusalsOfPath } from './operation-refusals';
import { buildOpenApiDocument } from './openapi';

/**
 * The HTTP API as a Koa app, without listening: main/api.ts and the tests both serve it. The public
 * listener does not mount the operator's routes at all, so no spelling of /ops/* reaches them there.
 */
export function createApp(deps: ApiDeps, listener: Listener = 'both'): Koa {
  // Each module says which listeners mount it (audience.ts): the operator's never on the public one.
  const audiences = AUDIENCES.filter((m) => listener === 'both' || (m.listeners ?? ['public']).includes(listener));
  // Behind a TLS proxy, ctx.protocol, ctx.host and ctx.ip come from its X-Forwarded-* headers; only
  // the hop nearest to us counts in X-Forwarded-For (a client can write whatever it likes before it).
  // Nothing sits in front of the operator listener: there those headers are the caller's own words,
  // and ctx.ip is the audit trail's `from`, so it is always the peer's address.
  const app = new Koa({ proxy: listener !== 'ops' && deps.config.http.trustProxy, maxIpsCount: 1 });
  app.use(observe(deps.logger, deps.metrics));
  app.use(errorEnvelope(deps.logger, refusalsOfPath));
  app.use(
    authFailureLimit(deps.rateLimit, {
      perAddress: deps.config.limits.authFailuresPerAddressPerMinute,
      perMerchant: deps.config.limits.authFailuresPerMerchantPerMinute,
    }),
  );
  const followClock = deps.useCases.shared.followTestServerClock;
  if (followClock) app.use(followTestServerClock(followClock));
  // Each audience module (src/api/<audience>/index.ts) declares what to mount; see audiences.ts.
  for (const m of audiences) for (const middleware of m.middleware?.(deps) ?? []) app.use(middleware);
  const openApiDocument = buildOpenApiDocument(
    deps.config.http.publicBaseUrl,
    deps.config.sandbox.enabled,
    deps.config.temporal.timeSkipping,
    deps.config.bank.connector === 'http',
  );
  // The sandbox's operations only where it is enabled, time travel's only in time-skipping mode.
  const switches = {
    sandboxEnabled: deps.config.sandbox.enabled,
    timeSkipping: followClock !== undefined,
    bankCallbacks: deps.config.bank.connector === 'http',
  };
  const routers = audiences.flatMap((m) => {
    const operations = mountedOn(switchedOn(m.operations ?? [], switches), listener, deps.config);
    return [
      ...(operations.length ? [operationsRouter(operations, deps)] : []),
      ...(m.routers?.(deps, { openApiDocument, listener }) ?? []),
    ];
  });
  for (const router of routers) {
    app.use(router.routes());
    // Sets 405 (or 501) with the Allow header; errorEnvelope then writes the envelope around it.
    app.use(router.allowedMethods());
  }
  // Koa's default error handler would answer a stray error in plain text; errorEnvelope catches
  // everything from the routes, so this only logs what escapes the chain (e.g. a socket error).
  app.on('error', (err) => deps.logger.warn({ err }, 'koa error outside a request'));
  return app;
}

/**
 * What the refusals of a request no operation took (a wrong method, an unknown route, a failure
 * before routing, a broken request Node answers itself: server.ts) are written in, from what the
 * audiences declare at its path, every audience's (what a listener does not mount keeps its path's
 * envelope): the operation its query selects, else the envelope its selector refuses the others
 * in, else the envelope its module declares for the path, else `{success, message}`.
 */
export const refusalsOfPath: RefusalsOfPath = (rawPath, query = {}) => {
  // As the router matches (case-insensitive, a trailing slash allowed): `/TransactU` is `/transactU`'s address.
  const path = rawPath.replace(/\/+$/, '').toLowerCase();
  for (const m of AUDIENCES) {
    const declared = declaredAt(m, path, query);
    if (declared) return declared;
  }
  return { envelope: 'success' };
};

function declaredAt(m: AudienceModule, path: string, query: Record<string, unknown>): OperationRefusals | undefined {
  const atPath = (m.operations ?? []).filter((op) => op.path.toLowerCase() === path);
  const selected = atPath.find((op) => selects(op, query));
  if (selected) return { envelope: selected.envelope, errors: selected.errors };
  const otherwise = atPath.find((op) => op.selectedBy?.otherwise)?.selectedBy?.otherwise;
  if (otherwise) return { envelope: otherwise.envelope };
  const envelope = m.envelope?.kindOf(path);
  return envelope ? { envelope } : undefined;
}
