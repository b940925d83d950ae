import type { DashboardPermission } from '../../domain/dashboard-roles';
import type { ApiDeps } from '../deps';
import { dashboardSignedIn, pageRefusalBody, type DashboardState } from '../middleware/dashboard-session';
import { defineOperation, type DeclaredOperation, type OperationRequest, type QueryParameters } from '../operation';

/** A signed-in dashboard request: the caller is the session's state (its POST form read and checked). */
export type DashboardRequest = OperationRequest<undefined, DashboardState, QueryParameters>;

/**
 * A dashboard page or form as a declared operation: behind the session (and the permission, if
 * any), no body of the pipeline's (the scheme reads a POST's form with its CSRF token), its
 * refusals pages or redirects to the sign-in, left out of the API reference.
 */
export function dashboardOperation(o: {
  method: 'get' | 'post';
  path: string;
  permission?: DashboardPermission;
  handle: (request: DashboardRequest, deps: ApiDeps) => Promise<unknown>;
}): DeclaredOperation {
  const { handle } = o;
  return defineOperation<undefined, DashboardState, QueryParameters>({
    method: o.method,
    path: o.path,
    envelope: 'success',
    auth: dashboardSignedIn(o.permission),
    body: { contentType: 'none' },
    reference: 'elsewhere',
    refusalBody: pageRefusalBody,
    handle,
  });
}
