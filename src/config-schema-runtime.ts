import { z } from 'zod';
import { bool, port } from './config-schema-fields';

/** Configuration of the process: GATEWAY_ENV, its listeners and bodies (`http`), logs, metrics and traces (`observability`), the store, Temporal, and `npm start`'s local stack (`devStack`). */
export const runtimeSettings = z.object({
  GATEWAY_ENV: z
    .enum(['development', 'test', 'staging', 'production'])
    .default('development')
    .describe(
      'development, test, staging or production; staging and production require strong MASTER_KEY and OPS_TOKEN and an https PUBLIC_BASE_URL, and production never runs the sandbox',
    ),
  API_HOST: z.string().min(1).default('127.0.0.1').describe('address the HTTP API binds to'),
  API_PORT: port.default(3000).describe('port of the HTTP API'),
  OPS_HOST: z
    .string()
    .min(1)
    .default('127.0.0.1')
    .describe('address the operator listener binds to (the private network or loopback, never a public interface)'),
  OPS_PORT: port
    .optional()
    .describe(
      'port of the operator listener: the ops API (/ops/v1, the payload codec) and /metrics, served there only; staging and production: required and not API_PORT. Unset in development and test: served on API_PORT',
    ),
  PUBLIC_BASE_URL: z
    .url()
    .optional()
    .describe(
      'base URL merchants and payers use to reach the API; defaults to http://localhost:<API_PORT> (staging and production: required, https)',
    ),
  TRUST_PROXY: bool
    .default(false)
    .describe(
      'the API sits behind one TLS-terminating proxy: take the scheme, host and client address from its X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-For (the last hop only)',
    ),
  REQUEST_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(300)
    .default(30)
    .describe('a request (headers and body) not received within this many seconds gets 408'),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(65536).describe('largest request body accepted (413 above)'),
  PAYMENT_LINK_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1_048_576)
    .describe('largest payment link batch accepted (a batch holds up to 500 links; 413 above)'),
  RECONCILIATION_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024)
    .describe('largest reconciliation file accepted (413 above)'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info').describe('log level'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url()
    .regex(/^https?:\/\//, 'must be an http(s) address')
    .optional()
    .describe(
      'OTLP/HTTP address of a trace collector (http://collector:4318/v1/traces): the API and workers send it one trace per request, from the request through the workflow, its activities and the bank call to the webhook; unset: no tracing',
    ),
  WORKER_METRICS_ADDRESS: z
    .string()
    .regex(/^[^\s:]+:\d{1,5}$/, 'must be host:port')
    .optional()
    .describe(
      "host:port where each worker process serves the Temporal SDK's Prometheus metrics (workflow task failures, activity failures and latencies, task slots); unset: not served. Keep it on the private network, like OPS_PORT",
    ),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must start with mongodb:// or mongodb+srv://')
    .optional()
    .describe('MongoDB to use; when unset, npm start and npm test run the local FerretDB store'),
  MONGODB_DB: z
    .string()
    .min(1)
    .default('gateway')
    .describe('database name (with TIME_SKIPPING, the gateway uses <name>_time_skipping instead)'),
  MERCHANT_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30)
    .describe(
      "how long a process keeps a merchant it opened (0 turns the cache off); each request still reads the merchant's version, so a change is seen at once",
    ),
  TEMPORAL_ADDRESS: z
    .string()
    .min(1)
    .optional()
    .describe('Temporal frontend host:port; when unset, npm start runs the local dev server'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default').describe('Temporal namespace'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('payments').describe('task queue of the payment worker'),
  TEMPORAL_UI_URL: z
    .string()
    .url()
    .regex(/^https?:\/\//, 'must be an http(s) address')
    .optional()
    .transform((v) => v?.replace(/\/+$/, ''))
    .describe(
      "Temporal UI's address (http://localhost:8233); the dashboard links each order to its workflow there (unset: no link)",
    ),
  TEMPORAL_TLS_CA_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      "mTLS to Temporal: PEM file of the CA that signed the frontend's certificate (with TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE, all or none; production and staging require them)",
    ),
  TEMPORAL_TLS_CERT_FILE: z
    .string()
    .min(1)
    .optional()
    .describe("mTLS to Temporal: PEM file of the gateway's client certificate (the frontend requires one)"),
  TEMPORAL_TLS_KEY_FILE: z
    .string()
    .min(1)
    .optional()
    .describe("mTLS to Temporal: PEM file of that client certificate's private key"),
  TEMPORAL_TLS_SERVER_NAME: z
    .string()
    .min(1)
    .optional()
    .describe(
      "mTLS to Temporal: the name the frontend's certificate must carry, when it differs from TEMPORAL_ADDRESS's host (e.g. temporal)",
    ),
  WORKER_DEPLOYMENT_NAME: z
    .string()
    .regex(/^[^\s.]+$/, 'a name without spaces or dots')
    .optional()
    .describe(
      'Worker Versioning: the Worker Deployment the worker belongs to (with WORKER_BUILD_ID; unset: the worker runs unversioned)',
    ),
  WORKER_BUILD_ID: z
    .string()
    .regex(/^[^\s]+$/, 'a build id without spaces')
    .optional()
    .describe(
      "Worker Versioning: this build's id within WORKER_DEPLOYMENT_NAME (with it); new workflows are pinned to the deployment's current build",
    ),
  TIME_SKIPPING: bool
    .default(false)
    .describe(
      'run against the Temporal time-skipping test server: time moves only through POST /sandbox/v1/time/skip (npm start -- --time-skipping); never in production',
    ),
  TIME_SKIP_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(600)
    .default(60)
    .describe('how long a time skip waits for the workflows it woke to finish before it answers 503'),
  DEV_MONGODB_PORT: port.default(27017).describe('npm start: port of the local FerretDB store'),
  DEV_TEMPORAL_PORT: port.default(7233).describe('npm start: gRPC port of the local Temporal dev server'),
  DEV_TEMPORAL_UI_PORT: port.default(8233).describe('npm start: port of Temporal UI'),
  DEV_TEMPORAL_UI_CODEC_PORT: port
    .default(8234)
    .describe("npm start: loopback port of Temporal UI's codec site (adds the operator token, forwards to /ops/v1/codec)"),
  DEV_BANK_SIMULATOR_PORT: port
    .default(4100)
    .describe('npm start -- --bank=simulator: port of the local bank simulator (BANK_BASE_URL points there)'),
  DATA_DIR: z.string().min(1).default('.data').describe('npm start: where local data persists'),
});
