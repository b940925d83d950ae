import type { ApiDeps } from './deps';
import {
  defineOperation,
  type AuthScheme,
  type DeclaredOperation,
  type OperationLimit,
  type OperationRequest,
  type QueryParameters,
  type Refusal,
} from './operation';

/** A browser's form as posted: its fields, or null where they could not be read (a GET has none: undefined). */
export type BrowserForm = Record<string, string> | null | undefined;

/** A request of a page for people, or of one of its forms. */
export type BrowserPageRequest<P> = OperationRequest<BrowserForm, P, QueryParameters>;

/**
 * A page for people (a payer's, or the dashboard's before sign-in) as a declared operation: a
 * POST's body is a browser's form (`fields: 'browser'`: its fields, or null, which the page answers
 * itself), its answers pages and redirects, its reference the module's `paths` or `undocumented`.
 */
export function browserPage<P>(o: {
  method: 'get' | 'post';
  path: string;
  auth: AuthScheme<P>;
  limit?: OperationLimit;
  refusalBody?: (refusal: Refusal) => object;
  handle: (request: BrowserPageRequest<P>, deps: ApiDeps) => Promise<unknown>;
}): DeclaredOperation {
  return defineOperation<BrowserForm, P, QueryParameters>({
    method: o.method,
    path: o.path,
    envelope: 'success',
    auth: o.auth,
    body: o.method === 'post' ? { contentType: 'application/x-www-form-urlencoded', fields: 'browser' } : { contentType: 'none' },
    limit: o.limit,
    reference: 'elsewhere',
    refusalBody: o.refusalBody,
    handle: o.handle,
  });
}
