import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { AllowListedExporter } from './allow-listed-exporter';
import { OwnTraceContextPropagator } from './trace-context';

/** What a process's Temporal worker needs to export its workflows' spans (the SDK's sink). */
export interface Tracing {
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Traces of this process to an OTLP/HTTP collector at `url` (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
 * e.g. http://collector:4318/v1/traces): every incoming and outgoing HTTP request (the merchant's
 * call, the bank's, a webhook's), and, through the Temporal interceptors the client and worker add,
 * each workflow start, workflow and activity, one trace from the request to the webhook. Call it
 * first in an entry point, before the first request is served or made.
 */
export function startTracing(url: string, serviceName: string): Tracing {
  const resource = new Resource({ 'service.name': serviceName });
  const spanProcessor = new BatchSpanProcessor(new AllowListedExporter(new OTLPTraceExporter({ url })));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register({ propagator: new OwnTraceContextPropagator() });
  const collector = new URL(url);
  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // The exports to the collector are not traced (each would start a trace of its own).
        ignoreOutgoingRequestHook: (r) => r.path === collector.pathname && String(r.port) === collector.port,
      }),
    ],
  });
  return {
    spanProcessor,
    resource,
    async shutdown() {
      unregister();
      await provider.shutdown();
      trace.disable();
    },
  };
}
