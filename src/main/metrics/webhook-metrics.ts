import type { Registry } from 'prom-client';
import {
  WEBHOOK_LATENCY_BUCKETS,
  type WebhookEndpointDoc,
  type WebhookEndpointRepository,
} from '../../store/webhook-endpoint-repository';

type Value = { value: number; labels: Record<string, string | number>; metricName?: string };

/** At most this many merchants' webhook endpoints are reported (webhook_metrics_truncated says when more exist). */
export const WEBHOOK_METRICS_MAX_ENDPOINTS = 5000;

/**
 * Webhook metrics per merchant, read from the store: attempts are made by workers (other
 * processes), which count them in `webhook_endpoints` with atomic $inc, so every API replica
 * reports the same totals. Labelled by merchantIdentifier. One bounded read per scrape
 * (WEBHOOK_METRICS_MAX_ENDPOINTS, only the fields reported), shared by the metrics; /metrics
 * itself takes the operator token.
 */
export function registerWebhookMetrics(registry: Registry, endpoints: WebhookEndpointRepository): void {
  let snapshot: Promise<WebhookEndpointDoc[]> | null = null;
  // One store read per scrape, shared by the metrics; a store away leaves them empty, not /metrics failing.
  const docs = () => {
    snapshot ??= endpoints
      .forMetrics(WEBHOOK_METRICS_MAX_ENDPOINTS + 1)
      .catch(() => [])
      .finally(() => setImmediate(() => (snapshot = null)));
    return snapshot;
  };
  const listed = (all: WebhookEndpointDoc[]) => all.slice(0, WEBHOOK_METRICS_MAX_ENDPOINTS);
  const metric = (name: string, help: string, type: string, values: (d: WebhookEndpointDoc[]) => Value[]) => ({
    name,
    help,
    type,
    aggregator: 'sum',
    reset() {},
    async get() {
      return { name, help, type, aggregator: 'sum', values: values(await docs()) };
    },
  });
  const by = (d: WebhookEndpointDoc) => ({ merchantIdentifier: d._id });
  const metrics = [
    metric(
      'webhook_metrics_truncated',
      `1 when more than ${WEBHOOK_METRICS_MAX_ENDPOINTS} merchants' endpoints exist and only the first are reported`,
      'gauge',
      (all) => [{ value: all.length > WEBHOOK_METRICS_MAX_ENDPOINTS ? 1 : 0, labels: {} }],
    ),
    metric('webhook_attempts_total', 'Webhook attempts sent, per merchant', 'counter', (all) =>
      listed(all).map((d) => ({ value: d.attempts ?? 0, labels: by(d) })),
    ),
    metric('webhook_successes_total', 'Webhook attempts acknowledged with SUCCESS, per merchant', 'counter', (all) =>
      listed(all).map((d) => ({ value: d.successes ?? 0, labels: by(d) })),
    ),
    metric('webhook_attempt_duration_seconds', 'Webhook attempt latency, per merchant', 'histogram', (all) =>
      listed(all).flatMap((d) => [
        ...WEBHOOK_LATENCY_BUCKETS.map((le, i) => ({
          metricName: 'webhook_attempt_duration_seconds_bucket',
          value: d.latencyBuckets?.[`b${i}`] ?? 0,
          labels: { ...by(d), le },
        })),
        { metricName: 'webhook_attempt_duration_seconds_bucket', value: d.attempts ?? 0, labels: { ...by(d), le: '+Inf' } },
        { metricName: 'webhook_attempt_duration_seconds_sum', value: d.latencySumSeconds ?? 0, labels: by(d) },
        { metricName: 'webhook_attempt_duration_seconds_count', value: d.attempts ?? 0, labels: by(d) },
      ]),
    ),
    metric(
      'webhook_endpoints_disabled',
      'Disabled webhook endpoints (1 per merchant whose endpoint is disabled)',
      'gauge',
      (all) => listed(all).map((d) => ({ value: d.disabled ? 1 : 0, labels: by(d) })),
    ),
  ];
  for (const m of metrics) registry.registerMetric(m as unknown as Parameters<Registry['registerMetric']>[0]);
}
