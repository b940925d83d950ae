import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { z } from 'zod';
import { ApiError } from '../domain/api-errors';
import type { ApiDeps } from './deps';
import { refusalAnswer, sendRefusal } from './envelope';
import { authenticationFailed } from './middleware/abuse-limits';
import { describeIssues, validate } from './middleware/body';
import { corsFor } from './middleware/cors';
import { sendPage } from './hosted-page';
import { respondWithCsv } from './csv-stream';
import {
  CsvDownload,
  HtmlPage,
  HttpAnswer,
  JsonText,
  Redirect,
  Refusal,
  selects,
  StreamedPage,
  Verified,
  type DeclaredOperation,
  type OperationLimit,
  type RefusalContext,
} from './operation';
import { contentOf, parseBody, readBody } from './operation-body';
import { browserOf, setCookies, WithCookies } from './operation-browser';
import { recordOperation } from './operation-refusals';
import { respondWithPage } from './page-stream';

/**
 * Mounts declared operations on one router, each running the same steps in the same order: read the
 * exact bytes (415, 413), parse them strictly (JSON, or a signed form whose `data` is parsed once
 * authenticated: operation-body.ts), authenticate, count the limit, validate the whole body, and
 * only then the handler. A scheme of the headers alone authenticates, and its limit counts, before
 * the body is read, and its signature over the bytes, if any, is checked before they are parsed.
 * Authentication comes before validation, so a caller without the key learns nothing of the body's
 * rules; a body valid at once (nearly every one) is parsed once. Query parameters are validated
 * once the caller is known (by its headers: before the body is read).
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
      recordOperation(ctx, { envelope: op.envelope, errors: op.errors });
      const seen: Seen = { accept: ctx.get('accept') };
      const answer = () => runCaught(ctx, op, deps, limit, seen);
      if (cors) await cors(ctx, answer);
      else await answer();
    });
  }
  refuseUnselected(router, operations);
  return router;
}

/** A request no operation of its address selects, where one says how, is refused so (after every operation had its turn). */
function refuseUnselected(router: Router, operations: readonly DeclaredOperation[]): void {
  const refused = new Set<string>();
  for (const op of operations) {
    const selector = op.selectedBy;
    const otherwise = selector?.otherwise;
    const at = `${op.method} ${op.path}`;
    if (!selector || !otherwise || refused.has(at)) continue;
    refused.add(at);
    router.register(op.path, [op.method.toUpperCase()], (ctx: Context) => {
      recordOperation(ctx, { envelope: otherwise.envelope });
      throw new ApiError(otherwise.error, `${selector.parameter} is ${JSON.stringify(ctx.query[selector.parameter] ?? null)}`);
    });
  }
}

type Limit = { counted: OperationLimit['counted']; take: ReturnType<OperationLimit['build']> } | null;

/** What the pipeline has learnt of the request so far, for the answer to a refusal: the body as parsed, the caller and the content it signed. */
type Seen = RefusalContext & { parsed?: unknown };

/** Runs the steps; a catalogue error the operation answers in its own way (`caught`) is written as its refusal. */
async function runCaught(ctx: Context, op: DeclaredOperation, deps: ApiDeps, limit: Limit, seen: Seen): Promise<void> {
  try {
    await run(ctx, op, deps, limit, seen);
  } catch (e) {
    const refusal = e instanceof ApiError ? op.caught?.(e) : null;
    if (!refusal) throw e;
    answerRefusal(ctx, op, refusal, seen);
  }
}

async function run(ctx: Context, op: DeclaredOperation, deps: ApiDeps, limit: Limit, seen: Seen): Promise<void> {
  const { auth } = op;
  const byHeaders = auth.from === 'headers' ? await auth.authenticate(ctx, deps) : undefined;
  if (byHeaders instanceof Refusal) return answerRefusal(ctx, op, byHeaders, seen);
  seen.caller = byHeaders;
  const counted = async (caller: unknown, when: OperationLimit['counted'], body?: unknown) =>
    limit?.counted === when ? limit.take(ctx, auth.limitKey(caller), body) : null;
  const overByHeaders = byHeaders === undefined ? null : await counted(byHeaders, 'authenticated');
  if (overByHeaders) return answerRefusal(ctx, op, overByHeaders, seen);
  let query = auth.from === 'headers' ? queryOf(ctx, op) : undefined;
  const refusedByHeaders = auth.from === 'body' ? (auth.beforeBody?.(ctx) ?? null) : null;
  if (refusedByHeaders) return answerRefusal(ctx, op, refusedByHeaders, seen);

  const raw = await readBody(ctx, op.body, deps.config.http);
  const bytes = raw ?? Buffer.alloc(0);
  const unsigned = auth.from === 'headers' ? await auth.verifyBody?.(ctx, deps, byHeaders, bytes) : null;
  if (unsigned) return answerRefusal(ctx, op, unsigned, seen);
  const parsed = parseBody(op.body, raw);
  seen.parsed = parsed;
  // A JSON body is tried at once; a signed form's `data` is parsed only once its signer is known.
  let checked = checkedAtOnce(op, parsed);
  let schema = 'schema' in op.body ? op.body.schema : undefined;
  if (auth.from !== 'headers') {
    const authenticated = await auth.authenticate(ctx, deps, {
      raw: bytes,
      parsed,
      valid: checked?.success ? checked.data : undefined,
    });
    if (authenticated instanceof Refusal) return answerRefusal(ctx, op, authenticated, seen);
    if (authenticated instanceof Verified) {
      seen.caller = authenticated.caller as unknown;
      seen.content = authenticated.content;
      schema = authenticated.schema ?? schema;
      checked = undefined;
    } else seen.caller = authenticated;
    const overAuthenticated = await counted(seen.caller, 'authenticated');
    if (overAuthenticated) return answerRefusal(ctx, op, overAuthenticated, seen);
    query = queryOf(ctx, op);
  }
  const content = 'content' in seen ? seen.content : contentOf(op.body, parsed);
  // Without a schema (no body, a reading its scheme verified whole) the content is the body.
  checked ??= schema ? schema.safeParse(content) : { success: true, data: content };
  if (!checked.success) {
    const issues = checked.error.issues;
    // A body without rules of its own (none, a browser's form) never fails them.
    const invalid = 'invalid' in op.body ? op.body.invalid?.(issues, parsed, content) : undefined;
    if (invalid instanceof ApiError) throw invalid;
    if (invalid) return answerRefusal(ctx, op, invalid, seen);
    throw new ApiError('validationFailed', describeIssues(issues));
  }
  const overValidated = await counted(seen.caller, 'validated', checked.data);
  if (overValidated) return answerRefusal(ctx, op, overValidated, seen);

  const request = {
    caller: seen.caller,
    body: checked.data,
    params: (ctx.params ?? {}) as Record<string, string>,
    query,
    parsed,
    signed: seen.content,
    ip: ctx.ip || null,
    accept: seen.accept,
    browser: browserOf(ctx, deps.config.http.publicOrigin),
  };
  const answer = await op.handle(request, deps);
  if (answer instanceof Refusal) return answerRefusal(ctx, op, answer, seen);
  return respond(ctx, answer);
}

/** The body's validation where it needs no caller: none, a JSON body, a text. */
function checkedAtOnce(op: DeclaredOperation, parsed: unknown): z.ZodSafeParseResult<unknown> | undefined {
  if (op.body.contentType === 'none') return { success: true, data: undefined };
  return op.body.contentType === 'application/x-www-form-urlencoded' ? undefined : op.body.schema.safeParse(parsed);
}

/** The query parameters as its `query` validates them (400, validationFailed), or as parsed where it declares none. */
function queryOf(ctx: Context, op: DeclaredOperation): unknown {
  return op.query ? validate(op.query, ctx.query) : ctx.query;
}

/** Writes an answer: JSON (or JSON already serialized), a streamed page of records or CSV download, a page, a redirect, or one with its own status, type or headers. */
function respond(ctx: Context, answer: unknown): Promise<void> | void {
  if (answer instanceof WithCookies) {
    setCookies(ctx, answer.cookies);
    return respond(ctx, answer.answer);
  }
  if (answer instanceof StreamedPage) return respondWithPage(ctx, answer.cursor, answer.shape);
  if (answer instanceof CsvDownload) return respondWithCsv(ctx, answer.cursor, answer.shape);
  if (answer instanceof HttpAnswer) return answerHttp(ctx, answer);
  if (answer instanceof HtmlPage) {
    for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
    return sendPage(ctx, answer.status, answer.html, answer.policy);
  }
  if (answer instanceof Redirect) {
    ctx.status = answer.status;
    return ctx.redirect(answer.location);
  }
  if (answer instanceof JsonText) ctx.type = 'application/json';
  ctx.body = answer instanceof JsonText ? answer.text : answer;
}

function answerHttp(ctx: Context, answer: HttpAnswer): void {
  ctx.status = answer.http.status ?? 200;
  if (answer.http.type) ctx.type = answer.http.type;
  for (const [name, value] of Object.entries(answer.http.headers ?? {})) ctx.set(name, value);
  ctx.body = answer.body;
}

function answerRefusal(ctx: Context, op: DeclaredOperation, refusal: Refusal, seen: Seen): void {
  if (refusal.authentication) authenticationFailed(ctx);
  ctx.status = refusal.http;
  const body = op.refusalBody?.(refusal, seen.parsed, seen);
  // A refusal is never a streamed page.
  if (body !== undefined) void respond(ctx, body);
  else sendRefusal(ctx, refusalAnswer(op.envelope, refusal.code, refusal.text, refusal.http));
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
