import { defineOperation, HttpAnswer } from '../operation';
import { operatorToken } from '../middleware/operator-auth';
import { anyone } from './callers';

/** GET /health: liveness, on every listener. */
export const healthOperation = defineOperation({
  method: 'get',
  path: '/health',
  envelope: 'success',
  auth: anyone,
  body: { contentType: 'none' },
  reference: 'elsewhere',
  handle: () => Promise.resolve({ status: 'ok' }),
});

/** GET /ready: readiness (store and Temporal reachable), on every listener. */
export const readyOperation = defineOperation({
  method: 'get',
  path: '/ready',
  envelope: 'success',
  auth: anyone,
  body: { contentType: 'none' },
  reference: 'elsewhere',
  async handle(_request, deps) {
    const { store, temporal } = await deps.useCases.platform.readiness();
    const ready = store === 'ok' && temporal === 'ok';
    return new HttpAnswer({ status: ready ? 'ready' : 'unavailable', store, temporal }, { status: ready ? 200 : 503 });
  },
});

/** GET /metrics, on the ops listener: names every merchant with webhook traffic and costs a store read. */
export const metricsOperation = defineOperation({
  method: 'get',
  path: '/metrics',
  listeners: ['ops'],
  envelope: 'success',
  auth: operatorToken('metrics'),
  body: { contentType: 'none' },
  reference: 'elsewhere',
  async handle(_request, deps) {
    return new HttpAnswer(await deps.metrics.metrics(), { type: deps.metrics.contentType });
  },
});
