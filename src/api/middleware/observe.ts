import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { Context, Next } from 'koa';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { Logger } from '../../logger';

/**
 * Request id (echoed as X-Request-Id), one access-log line per request and RED metrics labelled
 * by route template (never by raw path, which would explode label cardinality and show tokens).
 */
export function observe(logger: Logger, registry: Registry) {
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });

  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('x-request-id');
    const requestId = /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const labels = {
        method: ctx.method,
        route: (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched',
        status: String(ctx.status),
      };
      // The request's trace span (when tracing is on) is named by its route, never its raw path.
      trace.getActiveSpan()?.setAttribute('http.route', labels.route).updateName(`${ctx.method} ${labels.route}`);
      duration.observe(labels, seconds);
      requests.inc(labels);
      logger.info(
        { requestId: ctx.state.requestId, ...labels, path: loggedPath(ctx.path), ms: Math.round(seconds * 1000) },
        'request',
      );
    }
  };
}

/**
 * A payment link's (or hosted checkout's) token is its only key (whoever holds it can pay it), and
 * a dashboard invitation's token makes an account: logs show the path without them.
 */
export function loggedPath(path: string): string {
  return path
    .replace(/^\/pl\/(?!api\/)[^/]+/, '/pl/[token]')
    .replace(/^\/checkout\/[^/]+/, '/checkout/[token]')
    .replace(/^\/dashboard\/invitations\/[^/]+/, '/dashboard/invitations/[token]');
}
