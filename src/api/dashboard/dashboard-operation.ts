import type { DashboardPermission } from '../../domain/dashboard-roles';
import type { ApiDeps } from '../deps';
import { dashboardFormSignedIn, dashboardSignedIn, pageRefusalBody, type DashboardState } from '../middleware/dashboard-session';
import { defineOperation, type DeclaredOperation, type OperationRequest, type QueryParameters } from '../operation';

/** A dashboard form's fields as posted, its CSRF token taken out (a page's GET has none: `{}`). */
export type DashboardForm = Record<string, string>;

/** A signed-in dashboard request: the caller is the session's state, the body a POST's form, its token checked. */
export type DashboardRequest = OperationRequest<DashboardForm, DashboardState, QueryParameters>;

/**
 * A dashboard page or form as a declared operation: behind the session (and the permission, if
 * any), its refusals pages or redirects to the sign-in, left out of the API reference. A page is
 * authenticated from its headers alone; a form's body is a browser's form, authenticated with it
 * (its origin and the session's CSRF token, dashboardFormSignedIn) before the handler reads its
 * fields through its own strict schema.
 */
export function dashboardOperation(o: {
  method: 'get' | 'post';
  path: string;
  permission?: DashboardPermission;
  handle: (request: DashboardRequest, deps: ApiDeps) => Promise<unknown>;
}): DeclaredOperation {
  const { handle } = o;
  const form = o.method === 'post';
  return defineOperation<DashboardForm | null | undefined, DashboardState, QueryParameters>({
    method: o.method,
    path: o.path,
    envelope: 'success',
    auth: form ? dashboardFormSignedIn(o.permission) : dashboardSignedIn(o.permission),
    body: form ? { contentType: 'application/x-www-form-urlencoded', fields: 'browser' } : { contentType: 'none' },
    reference: 'elsewhere',
    refusalBody: pageRefusalBody,
    handle: (r, deps) => handle({ ...r, body: withoutToken(r.body) }, deps),
  });
}

/** The form's own fields: the CSRF token was the scheme's to check, no field of the handler's schema. */
function withoutToken(body: DashboardForm | null | undefined): DashboardForm {
  return Object.fromEntries(Object.entries(body ?? {}).filter(([name]) => name !== 'csrf'));
}
