/**
 * Imported first by the API's and the worker's entry points, before any module of theirs loads
 * node:http: OpenTelemetry's HTTP instrumentation hooks the module as it is required, so a process
 * that started tracing later would trace no request. With OTEL_EXPORTER_OTLP_TRACES_ENDPOINT unset
 * (or invalid: the entry point's configuration check then says so and exits) nothing starts.
 */
import path from 'node:path';
import { tracingEndpoint } from '../config-tools';
import { startTracing, type Tracing } from '../tracing/tracing';

const endpoint = tracingEndpoint(process.env);
// src/main/api.ts under tsx, dist/src/main/api.js in the image: the service is gateway-api either way.
const entryPoint = path.basename(require.main?.filename ?? 'gateway').replace(/\.(ts|js)$/, '');

/** This process's tracing (service `gateway-api`, `gateway-worker`), or undefined when off. */
export const tracing: Tracing | undefined = endpoint !== undefined ? startTracing(endpoint, `gateway-${entryPoint}`) : undefined;
