import { type Context, type TextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * W3C trace context between the gateway's own processes (the Temporal interceptors' headers, the
 * calls it makes), never from an HTTP request it receives: a payer or merchant could otherwise pick
 * the trace id (and sampling) of their payments, and nothing of a caller's `baggage` is carried at
 * all, so no caller's text travels on to the bank, the merchant's webhook or workflow histories. A
 * received request is known by its Host header, which every HTTP/1.1 request has and no Temporal
 * header carrier does.
 */
export class OwnTraceContextPropagator extends W3CTraceContextPropagator {
  override extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    if (getter.get(carrier, 'host') !== undefined) return context;
    return super.extract(context, carrier, getter);
  }
}
