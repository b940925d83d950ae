import type { Attributes } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/**
 * The span attributes a trace may carry: what a request or a workflow step is and how it ended.
 * Everything else is dropped before export, so no instrumentation (today's or a later version's)
 * can put payer data into a trace: a URL with a checkout token, a payer's address, a header, an
 * activity's arguments. The names are OpenTelemetry's HTTP conventions (old and new) and the
 * Temporal interceptors' identifiers.
 */
const ALLOWED = new Set([
  'http.method',
  'http.request.method',
  'http.route',
  'http.status_code',
  'http.response.status_code',
  'http.scheme',
  'http.flavor',
  'network.protocol.version',
  'net.host.port',
  'net.peer.port',
  'server.port',
  'error.type',
  'workflowId',
  'runId',
  'activityId',
  'temporalWorkflowId',
  'temporalRunId',
  'temporalActivityId',
]);

const allowed = (attributes: Attributes): Attributes =>
  Object.fromEntries(Object.entries(attributes).filter(([k]) => ALLOWED.has(k)));

/** Exports through `next` with each span's attributes (and its events' and links') reduced to the allow-list. */
export class AllowListedExporter implements SpanExporter {
  constructor(private readonly next: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.next.export(
      spans.map((span) => withAttributes(span)),
      done,
    );
  }

  shutdown(): Promise<void> {
    return this.next.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.next.forceFlush?.() ?? Promise.resolve();
  }
}

/** A copy of the span that reads as the original but with allowed attributes only; status messages (error texts) go too. */
function withAttributes(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    attributes: { value: allowed(span.attributes) },
    events: { value: span.events.map((e) => ({ ...e, attributes: e.attributes && allowed(e.attributes) })) },
    links: { value: span.links.map((l) => ({ ...l, attributes: l.attributes && allowed(l.attributes) })) },
    status: { value: { code: span.status.code } },
  }) as ReadableSpan;
}
