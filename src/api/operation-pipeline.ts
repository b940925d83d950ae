import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { z } from 'zod';
import { ApiError } from '../domain/api-errors';
import type { ApiDeps } from './deps';
import { failureBody } from './envelope';
import { authenticationFailed } from './middleware/abuse-limits';
import { describeIssues, validate } from './middleware/body';
import { corsFor } from './middleware/cors';
import { JsonText, Refusal, selects, StreamedPage, type DeclaredOperation, type OperationLimit } from './operation';
import { contentOf, parseBody, readBody } from './operation-body';
import { respondWithPage } from './page-stream';

/**
 * Mounts declared operations on one router, each running the same steps in the same order: read the
 * exact bytes (415, 413), parse them strictly (JSON, or a signed form whose `data` is parsed once
 * authenticated: operation-body.ts), authenticate, count the limit, validate the whole body, and
 * only then the handler. A scheme of the headers alone authenticates, and its limit counts, before
 * the body is read, and its signature over the bytes, if any, is checked before they are parsed.
 * Authentication comes before validation, so a caller without the key learns nothing of the body's
 * rules; a body valid at once (nearly every one) is parsed once. Query parameters are validated
 * once the caller is known, before the body is read.
 */
export function operationsRouter(operations: readonly DeclaredOperation[], deps: ApiDeps): Router {
  const router = new Router();
  for (const op of operations) {
    const limit = limitOf(op, deps);
    // A browser's preflight is answered before any authentication (corsFor does not go on for it).
    const cors = op.cors ? corsFor(op.cors(deps.config), op.method.toUpperCase()) : null;
    if (cors) router.register(op.path, ['OPTIONS'], (ctx: Context, next: Next) => cors(ctx, next));
    router.register(op.path, [op.method.toUpperCase()], async (ctx: Context, next: Next) => {
      // A request another answers at this address goes on to its route.
      if (!selects(op, ctx.query)) {
        await next();
        return;
      }
      // What the error middleware (middleware/errors.ts) writes a thrown refusal in.
      ctx.state.operationEnvelope = op.envelope;
      if (cors) await cors(ctx, () => run(ctx, op, deps, limit));
      else await run(ctx, op, deps, limit);
    });
  }
  return router;
}

type Limit = { counted: OperationLimit['counted']; take: ReturnType<OperationLimit['build']> } | null;

async function run(ctx: Context, op: DeclaredOperation, deps: ApiDeps, limit: Limit): Promise<void> {
  const { auth } = op;
  const byHeaders = auth.from === 'headers' ? await auth.authenticate(ctx, deps) : undefined;
  if (byHeaders instanceof Refusal) return answerRefusal(ctx, op, byHeaders, undefined);
  const counted = async (caller: unknown, when: OperationLimit['counted']) =>
    limit?.counted === when ? limit.take(ctx, auth.limitKey(caller)) : null;
  const overByHeaders = byHeaders === undefined ? null : await counted(byHeaders, 'authenticated');
  if (overByHeaders) return answerRefusal(ctx, op, overByHeaders, undefined);
  let query = auth.from === 'headers' ? queryOf(ctx, op) : undefined;

  const raw = await readBody(ctx, op.body, deps.config);
  const bytes = raw ?? Buffer.alloc(0);
  const unsigned = auth.from === 'headers' ? await auth.verifyBody?.(ctx, deps, byHeaders, bytes) : null;
  if (unsigned) return answerRefusal(ctx, op, unsigned, undefined);
  const parsed = parseBody(op.body, raw);
  // A JSON body is tried at once; a signed form's `data` is parsed only once its signer is known.
  let checked = checkedAtOnce(op, parsed);
  let caller = byHeaders;
  if (auth.from === 'body') {
    caller = await auth.authenticate(ctx, deps, { raw: bytes, parsed, valid: checked?.success ? checked.data : undefined });
    if (caller instanceof Refusal) return answerRefusal(ctx, op, caller, parsed);
    const overAuthenticated = await counted(caller, 'authenticated');
    if (overAuthenticated) return answerRefusal(ctx, op, overAuthenticated, parsed);
    query = queryOf(ctx, op);
  }
  checked ??= (op.body as { schema: z.ZodType }).schema.safeParse(contentOf(op.body, parsed));
  if (!checked.success) {
    const issues = checked.error.issues;
    const invalid = op.body.contentType === 'none' ? undefined : op.body.invalid?.(issues, parsed);
    if (invalid instanceof ApiError) throw invalid;
    if (invalid) return answerRefusal(ctx, op, invalid, parsed);
    throw new ApiError('validationFailed', describeIssues(issues));
  }
  const overValidated = await counted(caller, 'validated');
  if (overValidated) return answerRefusal(ctx, op, overValidated, parsed);

  const request = { caller, body: checked.data, params: (ctx.params ?? {}) as Record<string, string>, query, parsed };
  const answer = await op.handle({ ...request, ip: ctx.ip || null }, deps);
  if (answer instanceof Refusal) return answerRefusal(ctx, op, answer, parsed);
  if (answer instanceof StreamedPage) return respondWithPage(ctx, answer.cursor, answer.shape);
  if (op.status !== undefined) ctx.status = op.status;
  if (answer instanceof JsonText) ctx.type = 'application/json';
  ctx.body = answer instanceof JsonText ? answer.text : answer;
}

/** The body's validation where it needs no caller: none, a JSON body, a text. */
function checkedAtOnce(op: DeclaredOperation, parsed: unknown): z.ZodSafeParseResult<unknown> | undefined {
  if (op.body.contentType === 'none') return { success: true, data: undefined };
  return op.body.contentType === 'application/x-www-form-urlencoded' ? undefined : op.body.schema.safeParse(parsed);
}

/** The query parameters as validated (400, validationFailed), or undefined for an operation that declares none. */
function queryOf(ctx: Context, op: DeclaredOperation): unknown {
  return op.query ? validate(op.query, ctx.query) : undefined;
}

function answerRefusal(ctx: Context, op: DeclaredOperation, refusal: Refusal, parsed: unknown): void {
  if (refusal.authentication) authenticationFailed(ctx);
  ctx.status = refusal.http;
  ctx.body = op.refusalBody?.(refusal, parsed) ?? failureBody(op.envelope, refusal.code, refusal.text, refusal.http);
}

/** A family names the shared per-merchant limit, counted as soon as the caller is known. */
function limitOf(op: DeclaredOperation, deps: ApiDeps): Limit {
  if (op.limit === undefined) return null;
  if (typeof op.limit === 'string') {
    const family = op.limit;
    return {
      counted: 'authenticated',
      take: async (ctx, key) => {
        await deps.rateLimit.consume(ctx, family, key);
        return null;
      },
    };
  }
  return { counted: op.limit.counted, take: op.limit.build(deps) };
}
