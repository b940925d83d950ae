import type { Context, Next } from 'koa';
import { ApiError, ApiErrors, type ApiErrorKind } from '../../domain/api-errors';
import type { Logger } from '../../logger';
import { loggedPath } from './observe';
import { errorBody, refusalStatus, sendRefusal } from '../envelope';
import { recordedOperation, reportedError, type RefusalsOfPath } from '../operation-refusals';

/**
 * Top of the chain: whatever is thrown becomes the catalogue's envelope and status. Only a fault
 * the catalogue does not know is a 500, and it is logged with the request id. The envelope, and
 * the errors a contract reports instead of the catalogue's, are the operation's that took the
 * request (operation-pipeline.ts records it); for a request none took, `refusalsOfPath` (the
 * composition's, app.ts) answers from what is declared at its path.
 */
export function errorEnvelope(logger: Logger, refusalsOfPath: RefusalsOfPath) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.body === undefined && ctx.status === 404) throw new ApiError('routeNotFound', `${ctx.method} ${ctx.path}`);
      // The router answered a known path with another method: 405, its Allow header kept.
      if (ctx.body === undefined && (ctx.status === 405 || ctx.status === 501)) throw new ApiError('methodNotAllowed');
    } catch (e) {
      if (clientGone(ctx, e)) {
        // Nobody reads an answer: no error of ours, and logged (and counted) as such, nginx's 499.
        logger.info({ requestId: ctx.state.requestId, path: loggedPath(ctx.path) }, 'client closed the request');
        ctx.status = CLIENT_CLOSED_REQUEST;
        return;
      }
      const classified = classify(e);
      if (classified === 'internal' || classified === 'dependencyUnavailable') {
        logger.error({ err: e, requestId: ctx.state.requestId, path: loggedPath(ctx.path) }, 'request failed');
      }
      const refusals = recordedOperation(ctx) ?? refusalsOfPath(ctx.path, ctx.query);
      const { kind, fixedText } = reportedError(refusals, classified);
      const detail = e instanceof ApiError ? e.detail : undefined;
      // A contract that fixes the text gets the detail in a header instead, for the developer.
      if (fixedText && detail) ctx.set('X-Error-Detail', detail.replace(/[^\x20-\x7e]/g, '?').slice(0, 512));
      ctx.status = refusalStatus(refusals.envelope, ApiErrors[kind].http);
      sendRefusal(ctx, errorBody(refusals.envelope, kind, fixedText ? undefined : detail));
    }
  };
}

/** What the access log and the metrics say of a request its client abandoned (nginx's convention). */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * The client went away before its answer: its body was cut off (raw-body's request.aborted), or its
 * connection is closed (a proxy giving up, a payer closing the tab, a replica's peer killed).
 */
function clientGone(ctx: Context, e: unknown): boolean {
  const err = e as { type?: unknown; code?: unknown } | null;
  return err?.type === 'request.aborted' || err?.code === 'ECONNABORTED' || ctx.req.socket.destroyed;
}

function classify(e: unknown): ApiErrorKind {
  if (e instanceof ApiError) return e.kind;
  if (isStoreUnreachable(e)) return 'dependencyUnavailable';
  if (isGrpcUnavailable(e)) return 'dependencyUnavailable';
  return 'internal';
}

/** The store driver's errors that mean the store cannot be reached (and their subclasses). */
const STORE_UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
]);

/**
 * The store cannot be reached: the error is (a subclass of) one of the driver's classes above,
 * recognised by the class names along its prototype chain, so the API need not import the driver.
 */
function isStoreUnreachable(e: unknown): boolean {
  for (let proto: unknown = e instanceof Error ? Object.getPrototypeOf(e) : null; proto; proto = Object.getPrototypeOf(proto)) {
    if (STORE_UNREACHABLE.has((proto as { constructor: { name: string } }).constructor.name)) return true;
  }
  return false;
}

/** Temporal's client reports an unreachable server as a gRPC UNAVAILABLE (14) or DEADLINE_EXCEEDED (4). */
function isGrpcUnavailable(e: unknown): boolean {
  const code =
    (e as { code?: unknown; cause?: { code?: unknown } } | null)?.cause?.code ?? (e as { code?: unknown } | null)?.code;
  return (e as Error | null)?.name === 'ServiceError' && (code === 14 || code === 4);
}
