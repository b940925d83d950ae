import type { Context } from 'koa';
import type { AuditActor } from '../../domain/audit';

/** The operator behind an ops request, as the audit trail names it: its token's name once authenticated. */
export const operatorActor = (ctx: Context): AuditActor => ({
  kind: 'operator',
  name: typeof ctx.state.operatorName === 'string' ? ctx.state.operatorName : 'operator',
});
