import type { Context } from 'koa';
import type { z } from 'zod';
import type { ApiError, ApiErrorKind } from '../domain/api-errors';
import type { Merchant } from '../domain/merchant';
import type { Config } from '../config';
import type { CsvShape } from './csv-stream';
import type { ApiDeps } from './deps';
import type { EnvelopeKind } from './envelope';
import type { PagePolicy } from './hosted-page';
import type { BrowserRequest } from './operation-browser';
import type { OperationErrors } from './operation-refusals';
import type { Issue } from './middleware/body';
import type { PageShape } from './page-stream';
import type { ApiFamily } from './middleware/rate-limit';
import type { operation as referenceOperation } from './reference/operation';

/**
 * A declared operation: everything one HTTP operation is (its address, how its caller proves who it
 * is, its body, its limit, its envelope, its reference entry) as data, and a handler that sees only
 * a request already authenticated and validated. operation-pipeline.ts runs the steps every
 * operation shares, in one order; the audience module lists its operations (audience.ts).
 */
export interface Operation<B = unknown, P = Merchant, Q = QueryParameters> {
  method: 'get' | 'post' | 'put' | 'patch';
  /** As the router writes it (`:name` for a path parameter, the handler's `params`; `{name}` in the reference). */
  path: string;
  /**
   * Only the requests whose query parameter has one of these values, where other requests to the
   * address are another's (Zaakpay's /transactU serves its checkout and its mandates by version).
   */
  selectedBy?: QuerySelector;
  /**
   * Served and documented only on a gateway where this switch is on (the sandbox's operations,
   * time travel's); everywhere else it is not mounted at all, so its address is a 404.
   */
  onlyWhere?: GatewaySwitch;
  /**
   * Mounted only where this holds of the configuration (the rendered API reference: outside
   * production); elsewhere its address is not served at all (a 404). Never documented.
   */
  servedWhere?: (config: Config) => boolean;
  /**
   * The listeners of its module that mount it, when not all of them (the operator's /metrics on the
   * ops listener only, the API reference on the public one); `both` mounts every operation.
   */
  listeners?: readonly ('public' | 'ops')[];
  /** The envelope its refusals (thrown from the catalogue or answered as a Refusal) are written in. */
  envelope: EnvelopeKind;
  /**
   * Catalogue errors its contract reports as its own (the ledger's 1036 for any failure), whoever
   * threw them while it served the request (its scheme, its limit, the store), and whether their
   * text is fixed.
   */
  errors?: OperationErrors;
  auth: AuthScheme<P>;
  body: OperationBody<B>;
  /**
   * Its query parameters (the handler's `query`), validated once the caller is authenticated and
   * before the body is validated; a body-less operation's reference documents them as its request.
   * Without it the handler gets them as parsed, unvalidated.
   */
  query?: z.ZodType<Q>;
  /**
   * Origins whose browsers may call it (middleware/cors.ts): their preflight (OPTIONS at its path)
   * is answered before authentication, and its answers carry the CORS headers.
   */
  cors?: (config: Config) => readonly string[];
  /** A family of the shared per-merchant limit (counted once authenticated), or a limit of its own. */
  limit?: ApiFamily | OperationLimit;
  /**
   * Its entry in the API reference; `request` defaults to the body's schema, the security to the
   * scheme's. 'shared': its address's entry is another operation's, one selected by another value.
   * 'elsewhere': none of its making, on purpose: the module's `paths` write it (a document of its
   * own, the bank's callback) or its `undocumented` leaves it out (probes, pages for people).
   */
  reference: OperationReference | 'shared' | 'elsewhere';
  /**
   * The body of a Refusal, when the envelope echoes something of the request (the split's orderId),
   * or the whole answer (a page to a browser, an XML document signed for the caller once known).
   */
  refusalBody?: (refusal: Refusal, parsed: unknown, seen: RefusalContext) => object;
  /**
   * A catalogue error one of its steps threw (415, 413, a malformed form, the limit), answered as a
   * refusal of its own (then written by `refusalBody`); null leaves it to the error middleware.
   */
  caught?: (error: ApiError) => Refusal | null;
  handle(request: OperationRequest<B, P, Q>, deps: ApiDeps): Promise<unknown>;
}

export type OperationBody<B> = JsonBody<B> | SignedDataFormBody<B> | FlatFormBody<B> | BrowserFormBody | TextBody<B> | NoBody;

interface BodyRules<B> {
  /** The full request: validated after authentication (and the limit), so a caller without the key learns nothing of its rules. */
  schema: z.ZodType<B>;
  /** The setting of `config.http` that bounds its size (maxBodyBytes, MAX_BODY_BYTES, when absent). */
  maxBytes?: 'maxBodyBytes' | 'paymentLinkMaxBodyBytes' | 'reconciliationMaxBytes';
  /**
   * How an invalid body is answered when not with the catalogue's validationFailed: a coded answer
   * of the API's own, or the catalogue's error of the field that failed (thrown). `content` is what
   * was validated (a signed form's `data`, what a flat form's checksum covered).
   */
  invalid?: (issues: readonly Issue[], parsed: unknown, content: unknown) => Refusal | ApiError;
}

/** A JSON body, parsed strictly before authentication: `schema` is the whole body. */
export interface JsonBody<B> extends BodyRules<B> {
  contentType: 'application/json';
  /** No body at all (no Content-Length or 0, no Transfer-Encoding) reads as `{}`: what "no body, or {}" takes. */
  optional?: boolean;
}

/** A text file (a bank's CSV): its bytes strict UTF-8 (else 400, malformedBody), the text validated with `schema`. */
export interface TextBody<B> extends BodyRules<B> {
  contentType: 'text/csv';
}

/**
 * No body: none is read, whatever is sent (a GET, or a POST whose address says it all); the handler's
 * is undefined, or what a `signedReading` scheme verified (a signed address). A GET's request is its `query`.
 */
export interface NoBody {
  contentType: 'none';
}

/**
 * Zaakpay's signed form: fields `data` (JSON text) and `checksum` over that exact text. The form is
 * read and checked with `form` before authentication (what the scheme sees as the body parsed);
 * `data` is parsed strictly, and validated with `schema`, only once the caller is authenticated.
 */
export interface SignedDataFormBody<B> extends BodyRules<B> {
  contentType: 'application/x-www-form-urlencoded';
  form: z.ZodType<SignedDataForm>;
  /** How `data` is read once its signer is known, when not as strictly as a JSON body (/checkTxn's PHP kits send it unquoted). */
  readData?: (data: string) => unknown;
}

/**
 * Zaakpay's flat forms (its checkout entries, its legacy APIs): the fields as posted, in order (a GET
 * operation's from its query string), parsed strictly (a field given twice is malformed) into the
 * pairs the scheme reads. Their checksum covers some fields in Zaakpay's order, as the merchant
 * signed them (sanitized, under one kit's names): the scheme returns that reading (`Verified`), and
 * it is what `schema` validates, never the form as posted.
 */
export interface FlatFormBody<B> extends BodyRules<B> {
  contentType: 'application/x-www-form-urlencoded';
  fields: 'flat';
}

/**
 * A form a person's browser posts from one of the gateway's pages: the handler's body is its fields,
 * or null where they cannot be read (another media type, too large, not strict UTF-8, a field
 * given twice), which the page answers itself (showing the page again), never a thrown error.
 */
export interface BrowserFormBody {
  contentType: 'application/x-www-form-urlencoded';
  fields: 'browser';
  maxBytes?: BodyRules<unknown>['maxBytes'];
}

/** A form's fields as posted, in order. */
export type FormFields = [string, string][];

export interface SignedDataForm {
  data: string;
  checksum?: string;
}

export interface QuerySelector {
  parameter: string;
  values: readonly string[];
  /**
   * The catalogue's error for a request no operation of the address selects (a version none
   * serves), and the envelope it is written in: also the address's for a request no operation took
   * (a wrong method).
   */
  otherwise?: { error: ApiErrorKind; envelope: EnvelopeKind };
}

/** What is on, on a gateway: the sandbox, time-skipping mode, the bank's callbacks (audience.ts's ReferenceOptions). */
export type GatewaySwitch = 'sandboxEnabled' | 'timeSkipping' | 'bankCallbacks';

/** The operations a gateway with these switches serves and documents. */
export function switchedOn<O extends { onlyWhere?: GatewaySwitch }>(
  operations: readonly O[],
  on: Record<GatewaySwitch, boolean>,
): O[] {
  return operations.filter((op) => op.onlyWhere === undefined || on[op.onlyWhere]);
}

/** The operations an app serving `listener` mounts under `config` (listeners, servedWhere). */
export function mountedOn<O extends Pick<Operation, 'listeners' | 'servedWhere'>>(
  operations: readonly O[],
  listener: 'public' | 'ops' | 'both',
  config: Config,
): O[] {
  return operations.filter(
    (op) => (listener === 'both' || !op.listeners || op.listeners.includes(listener)) && (op.servedWhere?.(config) ?? true),
  );
}

/** Whether a request of this query is the operation's own. */
export function selects(op: { selectedBy?: QuerySelector }, query: Record<string, unknown>): boolean {
  if (!op.selectedBy) return true;
  const value = query[op.selectedBy.parameter];
  return typeof value === 'string' && op.selectedBy.values.includes(value);
}

/** The query string's parameters as parsed (a parameter given twice is an array). */
export type QueryParameters = Record<string, string | string[] | undefined>;

/** What the handler gets: the caller as authenticated, and the body (and query) as validated. */
export interface OperationRequest<B, P, Q = QueryParameters> {
  caller: P;
  body: B;
  /** The path's parameters, as the router decoded them. */
  params: Record<string, string>;
  /** The query as its `query` schema validated it; without one, as parsed (an entry whose version is a parameter, as Zaakpay's). */
  query: Q;
  /** The body as parsed, before validation (what an answer echoes as it was sent); a signed form's fields. */
  parsed: unknown;
  ip: string | null;
  /** The request's Accept header ('' when absent): a browser's names text/html. */
  accept: string;
  /** What the scheme's checksum covered (a `Verified` reading, e.g. a flat form's signed fields in their order), as read. */
  signed?: unknown;
  /** What a person's browser sends besides the body (its cookies, its origin), for pages and their forms. */
  browser: BrowserRequest;
}

/** What a refusal's answer may depend on: the caller and the content it signed, once authenticated. */
export interface RefusalContext {
  caller?: unknown;
  content?: unknown;
  accept: string;
}

/** What the scheme may read: the exact bytes, the body parsed, and the body validated when it already is valid. */
export interface AuthInput {
  raw: Buffer;
  parsed: unknown;
  valid: unknown;
}

/**
 * How a caller proves who it is (a checksum header over the body, a checksum over some of its
 * fields, an API key header, ...). It throws the catalogue's error, or returns a Refusal for an API
 * with codes of its own. A scheme of the headers alone (`from: 'headers'`) runs before the body is
 * read, its limit counted then too: a caller without the key never gets its body read.
 */
export type AuthScheme<P = Merchant> = AuthSchemeStatement<P> &
  (
    | {
        from: 'body';
        /** What the headers alone refuse before the body is read (a browser form without a session cookie). */
        beforeBody?(ctx: Context): Refusal | null;
        authenticate(ctx: Context, deps: ApiDeps, input: AuthInput): Promise<P | Refusal>;
      }
    /**
     * A checksum over a reading of the request (a flat form's fields in Zaakpay's order as a kit signed
     * them, a signed address's parameters as written): that reading is what is validated.
     */
    | { from: 'signedReading'; authenticate(ctx: Context, deps: ApiDeps, input: AuthInput): Promise<Verified<P> | Refusal> }
    | {
        from: 'headers';
        authenticate(ctx: Context, deps: ApiDeps): Promise<P | Refusal>;
        /** A signature over the exact bytes, checked once they are read and before they are parsed. */
        verifyBody?(ctx: Context, deps: ApiDeps, caller: P, raw: Buffer): Promise<Refusal | null>;
      }
  );

/** A scheme reading the body, whose caller is the scheme's answer itself. */
export type BodyAuthScheme<P = Merchant> = Extract<AuthScheme<P>, { from: 'body' }>;

/** A scheme of the headers alone (e.g. an API key), to declare one that also verifies the bytes. */
export type HeadersAuthScheme<P = Merchant> = Extract<AuthScheme<P>, { from: 'headers' }>;

interface AuthSchemeStatement<P> {
  security?: Record<string, string[]>[];
  bodySignature?: ReferenceArgument['bodySignature'];
  /** Whose budget the operation's limit counts against. */
  limitKey(caller: P): string;
}

/** A limit of the operation's own (e.g. calls an hour), built once per app. */
export interface OperationLimit {
  /** Counted once the caller is authenticated, or only once its request is also valid (then given its body as validated). */
  counted: 'authenticated' | 'validated';
  build(deps: ApiDeps): (ctx: Context, key: string, body?: unknown) => Promise<Refusal | null>;
}

type ReferenceArgument = Parameters<typeof referenceOperation>[0];

export type OperationReference = Omit<ReferenceArgument, 'request' | 'security' | 'bodySignature' | 'in'> & {
  request?: z.ZodType;
  /** The path item's `parameters` as written (its path parameters), in place of any the query gives. */
  parameters?: object[];
};

/**
 * A refusal in the API's own code table (Zaakpay's APIs answer their codes with HTTP 200), written
 * in the operation's envelope. `authentication` counts it as a failed authentication.
 */
export class Refusal {
  constructor(
    readonly code: string,
    readonly text: string,
    readonly http = 200,
    readonly authentication = false,
  ) {}
}

/**
 * A caller authenticated by a checksum over a reading of the body (named fields in Zaakpay's order,
 * the values as a kit sanitized them): the content that reading covers is what the body's schema
 * validates, or `schema` for an entry that takes two forms (flat fields, or signed `data`).
 */
export class Verified<P> {
  constructor(
    readonly caller: P,
    readonly content: unknown,
    readonly schema?: z.ZodType,
  ) {}
}

/**
 * An HTML page, sent as hosted-page.ts sends pages (never cached or framed, no script but its
 * nonce's), with any headers of its own (Retry-After) and its Content-Security-Policy's allowances
 * (`policy`: where its forms may post, the nonce of its one script).
 */
export class HtmlPage {
  constructor(
    readonly status: number,
    readonly html: string,
    readonly headers: Record<string, string> = {},
    readonly policy: PagePolicy = {},
  ) {}
}

/** A redirect of the caller's browser. */
export class Redirect {
  constructor(
    readonly location: string,
    readonly status = 303,
  ) {}
}

/** An answer already serialized as JSON (stored bytes answered again exactly). */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * An answer with more than a JSON body of HTTP 200: its status (201 for a creation, 202 for work
 * started), its media type (a body of bytes, e.g. a PNG), its headers.
 */
export class HttpAnswer {
  constructor(
    readonly body: unknown,
    readonly http: { status?: number; type?: string; headers?: Record<string, string> } = {},
  ) {}
}

/** An answer streamed from a store cursor as it is read (page-stream.ts): a page of up to `shape.pageSize` records. */
export class StreamedPage<T> {
  constructor(
    readonly cursor: AsyncIterable<T> & { close(): Promise<void> },
    readonly shape: PageShape<T>,
  ) {}
}

/**
 * A CSV download streamed from a store cursor as it is read (csv-stream.ts): an attachment named
 * `shape.filename`, never cached, a header row and a row per record.
 */
export class CsvDownload<T, R extends object> {
  constructor(
    readonly cursor: AsyncIterable<T> & { close(): Promise<void> },
    readonly shape: CsvShape<T, R>,
  ) {}
}

/** An operation of any body and caller, as a module lists them. */
export type DeclaredOperation = Operation<unknown, unknown, unknown>;

/** Declares an operation, its body's (and query's) type inferred from its schema. */
export function defineOperation<B, P = Merchant, Q = QueryParameters>(o: Operation<B, P, Q>): Operation<B, P, Q> {
  return o;
}

/**
 * What an operation keeps across its requests (e.g. where each walk of pages stopped): built once
 * per app, from the deps the app serves every request with.
 */
export function perApp<T>(build: (deps: ApiDeps) => T): (deps: ApiDeps) => T {
  const built = new WeakMap<ApiDeps, T>();
  return (deps) => {
    if (!built.has(deps)) built.set(deps, build(deps));
    return built.get(deps) as T;
  };
}
