import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ApiDeps } from './deps';
import type { EnvelopeKind } from './envelope';
import type { DeclaredOperation } from './operation';

/** What the API reference shows on this gateway (the sandbox's and the time travel's operations only where they are on). */
export interface ReferenceOptions {
  sandboxEnabled: boolean;
  timeSkipping: boolean;
  bankCallbacks: boolean;
}

/**
 * Which listener an app serves: `public` (merchants, payers, the dashboard; never the operator's
 * routes), `ops` (the operator API and /metrics, on OPS_HOST:OPS_PORT) or `both` (development and
 * tests without OPS_PORT).
 */
export type Listener = 'public' | 'ops' | 'both';

/** What a module's routers may need from the assembled API (the platform's GET /openapi.json, the listener). */
export interface AssembledApi {
  openApiDocument: object;
  listener: Listener;
}

/**
 * One audience of the HTTP API (merchant, payer, dashboard, ops, sandbox, platform): everything app.ts
 * mounts, openapi.ts documents and the error envelope needs to know of it, declared in one place, its
 * folder's index.ts. A new operation is declared (operation.ts) in a file of the folder and listed in
 * `operations`; nothing outside the folder names it.
 */
export interface AudienceModule {
  name: 'merchant' | 'payer' | 'dashboard' | 'ops' | 'sandbox' | 'platform';
  /**
   * The listeners that mount it, its operations and routers alike (`both` mounts every module): the
   * public one when absent. The operator API's are on none but the ops listener.
   */
  listeners?: readonly ('public' | 'ops')[];
  /**
   * Its declared operations: mounted (operation-pipeline.ts) before its routers, documented and
   * given their envelope from the declaration itself.
   */
  operations?: readonly DeclaredOperation[];
  /** Mounted before every router (e.g. the dashboard's HTML 404 for its own addresses). */
  middleware?: (deps: ApiDeps) => Middleware[];
  /**
   * The routers of what is not declared as operations, mounted in order (none when every address
   * is an operation); a module that is off on this gateway (the sandbox in production) returns none.
   */
  routers?: (deps: ApiDeps, api: AssembledApi) => Router[];
  /** Its OpenAPI path items. */
  paths?: (o: ReferenceOptions) => Record<string, object>;
  /** Its OpenAPI component schemas and webhooks (callbacks the gateway sends). */
  componentSchemas?: () => Record<string, object>;
  webhooks?: () => Record<string, object>;
  /**
   * The error envelope of its paths that no operation declares (a 404 under a prefix of its own),
   * when not the default `{success, message}`; a declared operation's path speaks the operation's.
   */
  envelope?: EnvelopeDeclaration;
  /**
   * Addresses it serves that the API reference leaves out on purpose (HTML pages for people, the
   * reference itself, probes), as the router writes them (`/pl/:token`); one ending in `*` stands
   * for every address that starts with the rest (`/dashboard*`).
   */
  undocumented?: readonly string[];
}

export interface EnvelopeDeclaration {
  /** The kind for a path (lower-cased, trailing slashes removed), or undefined for the default. */
  kindOf(path: string): EnvelopeKind | undefined;
}
