/**
 * The production-like deployment (docker-compose.yml + Dockerfile) cannot run here (no Docker
 * engine), so this checks its description statically: services and their wiring, that api and
 * worker set only variables of src/config.ts and that those values pass `loadConfig`, that the
 * image's commands run files `npm run build` emits, and, by running the admin-tools job's command
 * against a fake `temporal` CLI, that exactly the search attributes of
 * temporal-config/search-attributes.yaml get registered.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { parse } from 'yaml';
import { configSchema, loadConfig } from '../../src/config';
import { apiEnvironment, acquirerUrlOf, caddyEnvironment, gatewayEnvironment } from '../../src/devstack/production/environments';
import {
  gatewayEnvFile,
  readEnvFile,
  stackPorts,
  TEMPORAL_SERVER_VERSION,
  temporalServerEnvFile,
} from '../../src/devstack/production/settings';
import { temporalServerEnv } from '../../src/devstack/production/temporal';
import {
  environmentOf,
  loadCompose,
  loadComposeOverride,
  envFilesOf,
  ownEnvironmentOf,
  root,
  service,
  type Compose,
  type Service,
} from '../support/compose';

// ---------------------------------------------------------------------------------------------
// docker-compose.yml

const MONGODB = 'mongodb';
const POSTGRESQL = 'postgresql';
const TEMPORAL = 'temporal';
const TEMPORAL_UI = 'temporal-ui';
const ADMIN_TOOLS = 'temporal-admin-tools';
const TEMPORAL_SCHEMA = 'temporal-schema';
const TEMPORAL_TLS = 'temporal-tls';
const API = 'api';
const WORKER = 'worker';
const CADDY = 'caddy';
const BANK_SIMULATOR = 'bank-simulator';
/** Variables of Node itself that api and worker may set beside src/config.ts's. */
const NODE_VARIABLES = ['NODE_EXTRA_CA_CERTS'];

/** Plausible values for what the operator must supply, as `${VAR:?message}` demands. */
const supplied: Record<string, string> = {
  MASTER_KEY: randomBytes(32).toString('hex'),
  OPS_TOKEN: randomBytes(24).toString('hex'),
  POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
  PUBLIC_HOST: 'pay.example.in',
  BANK_SECRET: randomBytes(32).toString('hex'),
  BANK_BASE_URL: 'https://acquirer.example.in',
  UPI_PAYEE_VPA: 'gateway@examplebank',
  BANK_SIMULATOR_SECRET: randomBytes(32).toString('hex'),
  BANK_SIMULATOR_ADMIN_TOKEN: randomBytes(24).toString('hex'),
  MONGODB_ROOT_PASSWORD: randomBytes(24).toString('hex'),
  MONGODB_GATEWAY_PASSWORD: randomBytes(24).toString('hex'),
  MONGODB_REPLICA_SET_KEY: randomBytes(48).toString('hex'),
};

/**
 * Compose interpolation: `$$` is a literal `$`; `${VAR:-default}` / `${VAR-default}` take the
 * default (what runs when the operator leaves VAR unset); `${VAR:?msg}`, `${VAR?msg}`, `${VAR}` and
 * `$VAR` take the plausible value above, and fail the test when there is none.
 */
function interpolate(value: string): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, braced: string | undefined, op: string | undefined, arg: string | undefined, bare: string | undefined) => {
      if (whole === '$$') return '$';
      const name = (braced ?? bare)!;
      if (op === ':-' || op === '-') return arg ?? '';
      const v = supplied[name];
      assert.ok(v !== undefined, `no plausible value for ${whole} in the test`);
      return v;
    },
  );
}

const interpolatedEnv = (s: Service) => Object.fromEntries(Object.entries(environmentOf(s)).map(([k, v]) => [k, interpolate(v)]));

function dependsOn(s: Service): Record<string, string> {
  const d = s.depends_on ?? {};
  if (Array.isArray(d)) return Object.fromEntries(d.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(d).map(([name, v]) => [name, v?.condition ?? 'service_started']));
}

/** Published ports as { hostIp, published, target } (short and long syntax; no hostIp: every interface). */
function portsOf(s: Service): { hostIp?: string; published?: number; target: number }[] {
  return (s.ports ?? []).map((p) => {
    if (typeof p === 'object') {
      const o = p as { target: number | string; published?: number | string; host_ip?: string };
      return {
        target: Number(o.target),
        published: o.published === undefined ? undefined : Number(o.published),
        ...(o.host_ip ? { hostIp: o.host_ip } : {}),
      };
    }
    const parts = String(p)
      .replace(/\/(tcp|udp)$/, '')
      .split(':');
    const target = Number(parts[parts.length - 1]);
    const published = parts.length >= 2 ? Number(parts[parts.length - 2]) : undefined;
    return { target, published, ...(parts.length >= 3 ? { hostIp: parts[0] } : {}) };
  });
}

/** The networks a service joins (compose's `default` when it names none) and its aliases there. */
function networksOf(s: Service): Record<string, string[]> {
  if (s.network_mode) return {};
  const n = s.networks ?? ['default'];
  if (Array.isArray(n)) return Object.fromEntries(n.map((name) => [name, []]));
  return Object.fromEntries(Object.entries(n).map(([name, v]) => [name, (v?.aliases ?? []).map(interpolate)]));
}

function argv(v: string | string[] | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  return Array.isArray(v) ? v.map(String) : v.trim().split(/\s+/);
}

function buildOf(s: Service): { context: string; dockerfile: string } | undefined {
  if (s.build === undefined) return undefined;
  const b = typeof s.build === 'string' ? { context: s.build } : s.build;
  const context = path.resolve(root, b.context ?? '.');
  return { context, dockerfile: path.resolve(context, b.dockerfile ?? 'Dockerfile') };
}

/** Bind mounts of a service: host path (absolute) -> container path. */
function bindMounts(s: Service): { host: string; container: string }[] {
  return (s.volumes ?? []).flatMap((v) => {
    if (typeof v === 'object') {
      return v.type === 'bind' && v.source ? [{ host: path.resolve(root, v.source), container: v.target }] : [];
    }
    const [source, target] = v.split(':');
    if (!target || !/^[./~]/.test(source)) return []; // a named volume
    return [{ host: path.resolve(root, source), container: target }];
  });
}

/** The named volume a container path lies in (undefined: not in a named volume). */
function mountedVolumeOf(s: Service, containerPath: string): string | undefined {
  for (const v of s.volumes ?? []) {
    const [source, target] = typeof v === 'object' ? [v.type === 'volume' ? v.source : undefined, v.target] : v.split(':');
    if (!source || !target || /^[./~]/.test(source)) continue;
    const rel = path.posix.relative(target, containerPath);
    if (rel && !rel.startsWith('..') && !path.posix.isAbsolute(rel)) return source;
  }
  return undefined;
}

/** Where a path inside the container comes from on the host, or undefined if not bind-mounted. */
function hostPath(s: Service, containerPath: string): string | undefined {
  for (const m of bindMounts(s)) {
    const rel = path.posix.relative(m.container, containerPath);
    if (!rel.startsWith('..') && !path.posix.isAbsolute(rel)) return path.join(m.host, rel);
  }
  return undefined;
}

function healthcheckText(s: Service): string {
  const t = s.healthcheck?.test;
  return Array.isArray(t) ? t.join(' ') : (t ?? '');
}

// ---------------------------------------------------------------------------------------------
// Dockerfile

interface Stage {
  name?: string;
  base: string;
  instructions: { op: string; args: string }[];
}

/** A small Dockerfile reader: joins continuations, drops comments, splits into stages. */
function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines.map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(\w+)\s+(.*)$/.exec(line);
    assert.ok(m, `unreadable Dockerfile line: ${line}`);
    const op = m[1].toUpperCase();
    const args = m[2].trim();
    if (op === 'FROM') {
      const f = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      assert.ok(f, `unreadable FROM: ${args}`);
      const base = f[1].replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string, b: string) => globalArgs[a ?? b] ?? '');
      stages.push({ base, name: f[2], instructions: [] });
    } else if (stages.length === 0) {
      if (op === 'ARG') {
        const [k, ...v] = args.split('=');
        globalArgs[k] = v.join('=');
      }
    } else {
      stages[stages.length - 1].instructions.push({ op, args });
    }
  }
  return stages;
}

const instructions = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args);

function workdir(stage: Stage): string {
  let dir = '/';
  for (const w of instructions(stage, 'WORKDIR')) dir = path.posix.resolve(dir, w);
  return dir;
}

/** Every file `npm run build` emits, relative to the project root, computed by TypeScript itself. */
function buildOutputs(): Set<string> {
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.build.json'), {}, host);
  assert.ok(parsed, 'tsconfig.build.json does not parse');
  assert.notEqual(parsed.options.noEmit, true, 'tsconfig.build.json emits nothing');
  return new Set(
    parsed.fileNames
      .flatMap((f) => ts.getOutputFileNames(parsed, f, false))
      .map((f) => path.relative(root, f).split(path.sep).join('/')),
  );
}

// ---------------------------------------------------------------------------------------------
// running the admin-tools job's command with a fake `temporal` CLI

interface Registration {
  status: number | null;
  stderr: string;
  creates: { namespace?: string; name: string; type: string }[];
  /** `operator namespace update` calls: the namespace and retention each set. */
  retentions: { namespace?: string; retention?: string }[];
  healthChecks: number;
  namespaceCreates: string[];
}

const fakeTemporal = `#!/bin/sh
echo "$*" >> "$FAKE_DIR/calls"
case "$1 $2 $3" in
  "operator cluster health")
    n=$(cat "$FAKE_DIR/health" 2>/dev/null || echo 0); echo $((n + 1)) > "$FAKE_DIR/health"
    if [ "$n" -ge "$FAKE_NOT_SERVING" ]; then echo SERVING; else echo "Error: failed checking cluster health" >&2; exit 1; fi ;;
  "operator namespace describe")
    if [ -n "$FAKE_NO_NAMESPACE" ] && [ ! -f "$FAKE_DIR/namespace" ]; then echo "Error: Namespace default is not found" >&2; exit 1; fi
    echo "NamespaceInfo.Name default" ;;
  "operator namespace create") echo "$*" > "$FAKE_DIR/namespace"; echo "Namespace default successfully registered." ;;
  "operator namespace update") echo "Namespace default successfully updated." ;;
  "operator search-attribute create") echo "Search attributes have been added" ;;
  "operator search-attribute list") cat "$FAKE_DIR/calls" ;;
  *) echo "fake temporal: unexpected $*" >&2; exit 2 ;;
esac
`;

/**
 * Runs argv (the job's entrypoint + command, container paths mapped to host paths) under sh, with
 * the service's environment and a fake `temporal` (and instant `sleep`) first on PATH.
 */
function runRegistration(args: string[], env: Record<string, string>, notServingFor = 0, namespaceExists = true): Registration {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'fake-temporal-'));
  try {
    writeFileSync(path.join(dir, 'temporal'), fakeTemporal, { mode: 0o755 });
    writeFileSync(path.join(dir, 'sleep'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const shells = ['sh', 'bash', '/bin/sh', '/bin/bash', '/usr/bin/env'];
    const [cmd, ...rest] = shells.includes(args[0]) ? args : ['sh', ...args];
    const r = spawnSync(cmd, rest, {
      encoding: 'utf8',
      timeout: 20_000,
      env: {
        PATH: `${dir}${path.delimiter}${process.env.PATH ?? ''}`,
        ...env,
        FAKE_DIR: dir,
        FAKE_NOT_SERVING: String(notServingFor),
        ...(namespaceExists ? {} : { FAKE_NO_NAMESPACE: '1' }),
        WAIT_ATTEMPTS: env.WAIT_ATTEMPTS ?? '5',
      },
    });
    const calls = existsSync(path.join(dir, 'calls')) ? readFileSync(path.join(dir, 'calls'), 'utf8').split('\n') : [];
    const creates = calls
      .filter((c) => c.startsWith('operator search-attribute create'))
      .flatMap((c) => {
        const words = c.split(/\s+/).slice(3);
        const flag = (f: string) => words.flatMap((w, i) => (w === f ? [words[i + 1]] : []));
        const names = flag('--name');
        const types = flag('--type');
        assert.equal(names.length, types.length, `unpaired --name/--type in: temporal ${c}`);
        const namespace = flag('--namespace')[0] ?? flag('-n')[0];
        return names.map((name, i) => ({ namespace, name, type: types[i] }));
      });
    const retentions = calls
      .filter((c) => c.startsWith('operator namespace update'))
      .map((c) => {
        const words = c.split(/\s+/).slice(3);
        const flag = (f: string) => words[words.indexOf(f) + 1];
        return { namespace: words.includes('--namespace') ? flag('--namespace') : undefined, retention: flag('--retention') };
      });
    const healthChecks = calls.filter((c) => c.startsWith('operator cluster health')).length;
    const namespaceCreates = calls.filter((c) => c.startsWith('operator namespace create'));
    return {
      status: r.status,
      stderr: `${r.stderr ?? ''}${r.error ? String(r.error) : ''}`,
      creates,
      retentions,
      healthChecks,
      namespaceCreates,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function searchAttributesIn(file: string): Record<string, string> {
  const doc = parse(readFileSync(file, 'utf8')) as { searchAttributes?: Record<string, string> };
  assert.ok(doc?.searchAttributes && Object.keys(doc.searchAttributes).length > 0, `no searchAttributes in ${file}`);
  return doc.searchAttributes;
}

const asMap = (creates: Registration['creates']) =>
  Object.fromEntries([...creates].sort((a, b) => a.name.localeCompare(b.name)).map((c) => [c.name, c.type]));
const sorted = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).sort(([a], [b]) => a.localeCompare(b)));

/** The admin-tools job's argv with every bind-mounted container path replaced by its host path. */
function adminJobArgv(c: Compose): string[] {
  const job = service(c, ADMIN_TOOLS);
  const args = [...(argv(job.entrypoint) ?? []), ...(argv(job.command) ?? [])];
  assert.ok(args.length > 0, `${ADMIN_TOOLS} has neither entrypoint nor command (the image would just sleep)`);
  return args.map((a) => (a.startsWith('/') ? (hostPath(job, a) ?? a) : a));
}

// ---------------------------------------------------------------------------------------------

describe('deployment: docker-compose.yml and Dockerfile', () => {
  const compose = loadCompose();
  const dockerfile = path.join(root, 'Dockerfile');

  describe('services', () => {
    it('has the services api and worker need', () => {
      for (const name of [MONGODB, POSTGRESQL, TEMPORAL, TEMPORAL_SCHEMA, TEMPORAL_UI, ADMIN_TOOLS, API, WORKER, CADDY])
        service(compose, name);
      assert.equal(compose.services[BANK_SIMULATOR], undefined, 'the bank simulator belongs to the sandbox profile only');
      assert.match(service(compose, MONGODB).image ?? '', /^mongo:7(\.|$)/, 'MongoDB 7');
      assert.match(service(compose, POSTGRESQL).image ?? '', /^postgres:/);
      assert.match(service(compose, TEMPORAL_UI).image ?? '', /^temporalio\/ui:/);
    });

    it('runs the Temporal server release `npm run stack:production` builds, and its tools of the same release', () => {
      assert.equal(service(compose, TEMPORAL).image, `temporalio/server:${TEMPORAL_SERVER_VERSION}`);
      for (const name of [TEMPORAL_SCHEMA, ADMIN_TOOLS])
        assert.equal(service(compose, name).image, `temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`, name);
      assert.ok(
        !/auto-setup/.test(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8')),
        'not the deprecated auto-setup image',
      );
    });

    it('runs MongoDB as a replica set that a healthcheck initiates, and api/worker connect to it', () => {
      const mongo = service(compose, MONGODB);
      const cmd = argv(mongo.command) ?? [];
      const i = cmd.indexOf('--replSet');
      assert.ok(i >= 0 && cmd[i + 1], 'mongod runs with --replSet <name>');
      const replSet = cmd[i + 1];
      const health = healthcheckText(mongo);
      assert.match(health, /rs\.initiate\(/, 'the healthcheck initiates the replica set');
      assert.ok(health.includes(`'${replSet}'`) || health.includes(`"${replSet}"`), `rs.initiate names ${replSet}`);
      assert.match(health, /isWritablePrimary|ismaster|isMaster/, 'healthy only once primary');
      for (const name of [API, WORKER]) {
        const uri = new URL(interpolatedEnv(service(compose, name)).MONGODB_URI ?? '');
        assert.equal(uri.hostname, MONGODB, `${name}: MONGODB_URI host`);
        assert.equal(uri.searchParams.get('replicaSet'), replSet, `${name}: MONGODB_URI replicaSet`);
      }
    });

    it('runs Temporal on PostgreSQL with the mounted dynamic config', () => {
      const temporal = service(compose, TEMPORAL);
      const env = environmentOf(temporal);
      assert.equal(env.DB, 'postgres12');
      assert.equal(env.POSTGRES_SEEDS, POSTGRESQL);
      assert.equal(dependsOn(temporal)[POSTGRESQL], 'service_healthy');
      assert.equal(dependsOn(temporal)[TEMPORAL_SCHEMA], 'service_completed_successfully', 'the schemas exist first');
      const schema = service(compose, TEMPORAL_SCHEMA);
      assert.equal(
        hostPath(schema, argv(schema.entrypoint)![1]!),
        path.join(root, 'deploy', 'temporal', 'setup-postgresql.sh'),
        'the schema job runs deploy/temporal/setup-postgresql.sh',
      );
      const schemaEnv = environmentOf(schema);
      for (const k of ['DB', 'DBNAME', 'VISIBILITY_DBNAME', 'POSTGRES_SEEDS', 'POSTGRES_USER', 'POSTGRES_PWD', 'DB_PORT'])
        assert.equal(schemaEnv[k], env[k], `the schema job and the server agree on ${k}`);
      assert.ok(env.DYNAMIC_CONFIG_FILE_PATH, 'DYNAMIC_CONFIG_FILE_PATH is set');
      const inContainer = path.posix.resolve('/etc/temporal', env.DYNAMIC_CONFIG_FILE_PATH);
      assert.equal(
        hostPath(temporal, inContainer),
        path.join(root, 'temporal-config', 'dynamicconfig', 'development.yaml'),
        `${inContainer} is temporal-config/dynamicconfig/development.yaml mounted into the server`,
      );
    });

    it("publishes Temporal UI on the host's loopback only, port 8233, read-only", () => {
      const ui = service(compose, TEMPORAL_UI);
      assert.deepEqual(portsOf(ui), [{ hostIp: '127.0.0.1', published: 8233, target: 8080 }], JSON.stringify(ui.ports));
      const env = interpolatedEnv(ui);
      assert.equal(env.TEMPORAL_ADDRESS, 'temporal:7233');
      assert.equal(env.TEMPORAL_DISABLE_WRITE_ACTIONS, 'true', 'no signal, terminate or reset from the UI');
    });

    it('starts api and worker after MongoDB, Temporal and the search-attribute job', () => {
      for (const name of [API, WORKER]) {
        const deps = dependsOn(service(compose, name));
        assert.equal(deps[MONGODB], 'service_healthy', `${name} waits for ${MONGODB}`);
        // The job ends once Temporal serves with the namespace and search attributes: Temporal's readiness.
        assert.equal(deps[ADMIN_TOOLS], 'service_completed_successfully', `${name} waits for ${ADMIN_TOOLS}`);
        for (const [dep, condition] of Object.entries(deps)) {
          service(compose, dep);
          if (condition === 'service_healthy') assert.ok(healthcheckText(service(compose, dep)), `${dep} has a healthcheck`);
        }
        const env = interpolatedEnv(service(compose, name));
        assert.equal(env.TEMPORAL_ADDRESS, `${TEMPORAL}:7233`, `${name}: TEMPORAL_ADDRESS`);
      }
      const job = service(compose, ADMIN_TOOLS);
      assert.equal(dependsOn(job)[TEMPORAL], 'service_started');
      assert.ok([undefined, 'no'].includes(job.restart), 'the admin-tools job runs once');
    });
  });

  describe('api and worker environment', () => {
    for (const name of [API, WORKER]) {
      it(`${name} sets only variables of the configuration schema`, () => {
        const keys = Object.keys(environmentOf(service(compose, name)));
        assert.ok(keys.length > 0, `${name} sets no environment`);
        const unknown = keys.filter((k) => !Object.hasOwn(configSchema.shape, k) && !NODE_VARIABLES.includes(k));
        assert.deepEqual(unknown, [], `${name} sets variables src/config.ts does not read`);
      });

      it(`${name}'s values validate against the configuration schema`, () => {
        const raw = environmentOf(service(compose, name));
        for (const secret of ['MASTER_KEY', ...(name === API ? ['OPS_TOKEN'] : []), 'BANK_SECRET']) {
          assert.match(
            raw[secret] ?? '',
            new RegExp(`^\\$\\{${secret}:\\?[^}]+\\}$`),
            `${name}: ${secret} must be a required \${${secret}:?...}`,
          );
        }
        assert.match(raw.PUBLIC_BASE_URL ?? '', /^https:\/\/\$\{PUBLIC_HOST:\?[^}]+\}$/, `${name}: PUBLIC_BASE_URL`);
        const env = interpolatedEnv(service(compose, name));
        assert.equal(env.GATEWAY_ENV, 'production');
        // The worker serves no operator API: it loads its configuration without OPS_TOKEN.
        const config = loadConfig(env, {}, name === API); // throws ConfigError with the reasons
        assert.equal(config.env, 'production');
        assert.equal(config.secrets.masterKey, supplied.MASTER_KEY);
        assert.equal(config.secrets.opsToken, name === API ? supplied.OPS_TOKEN : '');
        for (const k of ['MONGODB_URI', 'TEMPORAL_ADDRESS'] as const)
          assert.ok(env[k], `${name} sets ${k} (else it looks for the dev stack)`);
      });
    }

    it("the break-glass OPS_TOKEN is the api's alone: the worker never gets it, nor needs it", () => {
      assert.ok(environmentOf(service(compose, API)).OPS_TOKEN, 'api: OPS_TOKEN');
      assert.equal(environmentOf(service(compose, WORKER)).OPS_TOKEN, undefined, 'worker: OPS_TOKEN');
      assert.equal(
        environmentOf(service(loadComposeOverride(compose, 'docker-compose.sandbox.yml'), WORKER)).OPS_TOKEN,
        undefined,
        'sandbox worker',
      );
      assert.match(readFileSync(path.join(root, 'src/main/worker.ts'), 'utf8'), /configOrExit\(process\.env, false\)/);
      assert.throws(
        () => loadConfig(interpolatedEnv(service(compose, WORKER))),
        /OPS_TOKEN: required/,
        'the API still requires it',
      );
    });

    it('api and worker agree on store, Temporal and secrets', () => {
      const api = environmentOf(service(compose, API));
      const worker = environmentOf(service(compose, WORKER));
      for (const k of [
        'GATEWAY_ENV',
        'MONGODB_URI',
        'MONGODB_DB',
        'TEMPORAL_ADDRESS',
        'TEMPORAL_NAMESPACE',
        'TEMPORAL_TASK_QUEUE',
        'MASTER_KEY',
      ]) {
        assert.equal(worker[k], api[k], `${k} differs between api and worker`);
      }
      const ns = loadConfig(interpolatedEnv(service(compose, API))).temporal.namespace;
      assert.equal(
        environmentOf(service(compose, ADMIN_TOOLS)).TEMPORAL_NAMESPACE ?? 'default',
        ns,
        'the namespace is created and the search attributes go there',
      );
    });

    it('api listens on all interfaces, publishes nothing (Caddy does) and its healthcheck probes API_PORT', () => {
      const apiService = service(compose, API);
      const config = loadConfig(interpolatedEnv(apiService));
      assert.equal(config.http.host, '0.0.0.0', 'API_HOST=0.0.0.0, else the container is unreachable');
      assert.deepEqual(portsOf(apiService), [], 'api is reached through the TLS proxy only');
      assert.ok(
        config.http.opsPort && config.http.opsPort !== config.http.port,
        'the operator API on its own listener, published nowhere',
      );
      const health = healthcheckText(apiService);
      if (health) assert.ok(health.includes(`:${config.http.port}/`), `api healthcheck probes port ${config.http.port}`);
    });
  });

  describe('locked down (issue 22): TLS proxy, the bank simulator, stores and Temporal unexposed, no secret in the file', () => {
    const caddyfile = readFileSync(path.join(root, 'deploy', 'caddy', 'Caddyfile'), 'utf8');
    /** The Caddyfile's site blocks: address -> body (top-level braces only). */
    const sites = (() => {
      const out: Record<string, string> = {};
      const re = /^(\S[^{\n]*?)\s*\{\n([\s\S]*?)^\}/gm;
      for (const m of caddyfile.replace(/^\s*#.*$/gm, '').matchAll(re)) out[m[1]!.trim()] = m[2]!;
      return out;
    })();
    const caddy = service(compose, CADDY);
    const caddyEnv = environmentOf(caddy);
    const apiRaw = environmentOf(service(compose, API));
    const apiConfig = loadConfig(interpolatedEnv(service(compose, API)));

    it('runs every gateway process as production with the http bank connector and the sandbox off', () => {
      for (const name of [API, WORKER]) {
        const config = loadConfig(interpolatedEnv(service(compose, name)), {}, name === API);
        assert.equal(config.env, 'production', name);
        assert.equal(config.bank.connector, 'http', name);
        assert.equal(config.sandbox.enabled, false, name);
        assert.ok(config.bank.baseUrl?.startsWith('https://'), `${name}: the acquirer over TLS`);
      }
      assert.equal(environmentOf(service(compose, API)).SANDBOX_ENABLED, undefined, 'nothing can turn the sandbox back on');
    });

    it('puts Caddy in front of the API: TLS for PUBLIC_HOST, proxied to api:API_PORT, TRUST_PROXY on the API', () => {
      assert.match(caddy.image ?? '', /^caddy:2/);
      assert.ok(
        portsOf(caddy).some((p) => p.published === 443 && p.target === 443 && !p.hostIp),
        'Caddy publishes 443',
      );
      const site = sites['{$PUBLIC_HOST}'];
      assert.ok(site, `a site for {$PUBLIC_HOST}: ${Object.keys(sites).join(', ')}`);
      assert.match(site, /reverse_proxy \{\$API_UPSTREAMS\}/);
      assert.match(
        site,
        /@internal path_regexp internal \(\?i\)\^\/\+\(ops\|metrics\)\(\/\|\$\)\n\s*respond @internal 404/,
        'no /ops/* nor /metrics',
      );
      assert.doesNotMatch(site, /OPS_UPSTREAM/, 'the public site never reaches the operator listener');
      assert.match(site, /tls internal/, "a certificate from Caddy's local CA (self-signed root)");
      assert.equal(interpolate(caddyEnv.PUBLIC_HOST!), new URL(apiConfig.http.publicBaseUrl).host, 'the site is PUBLIC_BASE_URL');
      assert.equal(caddyEnv.API_UPSTREAMS, `api:${apiConfig.http.port}`);
      assert.equal(apiConfig.http.trustProxy, true);
      assert.ok(caddy.volumes?.some((v) => String(v).startsWith('./deploy/caddy/Caddyfile:/etc/caddy/Caddyfile')));
    });

    it('serves nothing but PUBLIC_HOST on the public port: no acquirer site, no bank simulator behind Caddy', () => {
      assert.deepEqual(
        Object.keys(sites).sort(),
        ['{$CODEC_SITE}', '{$PUBLIC_HOST}'],
        'the public site and the loopback codec site',
      );
      assert.equal(caddyEnv.CODEC_SITE, 'http://:8234');
      assert.ok(
        portsOf(caddy).some((p) => p.published === 8234 && p.hostIp === '127.0.0.1'),
        'the codec site on loopback',
      );
      assert.doesNotMatch(caddyfile.replace(/^\s*#.*$/gm, ''), /bank-simulator|acquirer/);
      assert.deepEqual(Object.keys(networksOf(caddy)).sort(), ['default']);
      assert.equal(
        apiRaw.BANK_BASE_URL,
        "${BANK_BASE_URL:?set BANK_BASE_URL to the acquirer's https address}",
        'no default acquirer',
      );
      for (const name of [API, WORKER]) {
        const s = service(compose, name);
        assert.equal(environmentOf(s).NODE_EXTRA_CA_CERTS, '/caddy-ca/root.crt', name);
        assert.ok(s.volumes?.includes('caddy-ca:/caddy-ca:ro'), `${name} mounts caddy-ca`);
        assert.equal(dependsOn(s)['caddy-ca'], 'service_completed_successfully', `${name} waits for the CA`);
      }
      assert.match(argv(service(compose, 'caddy-ca').command)?.join(' ') ?? '', /root\.crt \/caddy-ca\/root\.crt/);
    });

    it('the sandbox profile: the simulator on an internal network with its own secret and admin token, the gateway as staging', () => {
      const sandbox = loadComposeOverride(compose, 'docker-compose.sandbox.yml');
      assert.equal(sandbox.networks?.bank?.internal, true, 'the bank network is internal');
      const bank = service(sandbox, BANK_SIMULATOR);
      assert.deepEqual(portsOf(bank), [], 'the simulator publishes no port');
      assert.deepEqual(Object.keys(networksOf(bank)), ['bank'], 'the simulator joins the internal bank network only');
      const bankEnv = environmentOf(bank);
      assert.equal(bankEnv.BANK_SECRET, undefined, 'the simulator never holds BANK_SECRET');
      assert.match(bankEnv.BANK_SIMULATOR_SECRET ?? '', /^\$\{BANK_SIMULATOR_SECRET:\?/);
      assert.match(bankEnv.BANK_SIMULATOR_ADMIN_TOKEN ?? '', /^\$\{BANK_SIMULATOR_ADMIN_TOKEN:\?/);
      assert.notEqual(bankEnv.GATEWAY_ENV, 'production', 'the simulator refuses production (it is not the gateway)');
      for (const name of [API, WORKER]) {
        const raw = environmentOf(service(sandbox, name));
        assert.equal(raw.BANK_SECRET, bankEnv.BANK_SIMULATOR_SECRET, `${name}: signs with the simulator's own secret`);
        const config = loadConfig(interpolatedEnv(service(sandbox, name)), {}, name === API);
        assert.equal(config.env, 'staging', `${name}: production refuses the simulator`);
        assert.equal(config.sandbox.enabled, false, name);
        assert.equal(new URL(config.bank.baseUrl!).host, 'bank-simulator:4100');
        assert.ok('bank' in networksOf(service(sandbox, name)), `${name} reaches the simulator`);
      }
      const caddyNets = networksOf(service(sandbox, CADDY));
      assert.ok(caddyNets.bank?.includes(new URL(apiConfig.http.publicBaseUrl).hostname), 'its callbacks reach Caddy');
      const args = argv(bank.command) ?? [];
      assert.equal(args[args.indexOf('--port') + 1], '4100');
    });

    it('runs MongoDB with authentication: root and gateway users from env, a replica-set key file, credentials in MONGODB_URI', () => {
      const mongo = service(compose, MONGODB);
      const cmd = argv(mongo.command) ?? [];
      assert.ok(cmd.includes('--keyFile'), 'a replica set with authentication needs --keyFile');
      const env = environmentOf(mongo);
      assert.match(env.MONGO_INITDB_ROOT_PASSWORD ?? '', /^\$\{MONGODB_ROOT_PASSWORD:\?[^}]+\}$/);
      assert.match(env.MONGODB_REPLICA_SET_KEY ?? '', /^\$\{MONGODB_REPLICA_SET_KEY:\?[^}]+\}$/);
      assert.match(
        argv(mongo.entrypoint)?.join(' ') ?? '',
        /MONGODB_REPLICA_SET_KEY[\s\S]*chmod 400[\s\S]*docker-entrypoint\.sh/,
      );
      assert.match(healthcheckText(mongo), /-u root -p "\$\$MONGO_INITDB_ROOT_PASSWORD" --authenticationDatabase admin/);
      const init = hostPath(mongo, '/docker-entrypoint-initdb.d/create-gateway-user.js');
      assert.ok(init && existsSync(init), 'the init script that creates the gateway user is mounted');
      const script = readFileSync(init, 'utf8');
      for (const name of [API, WORKER]) {
        const uri = new URL(interpolatedEnv(service(compose, name)).MONGODB_URI ?? '');
        assert.equal(uri.username, 'gateway', `${name}: MONGODB_URI user`);
        assert.equal(uri.password, supplied.MONGODB_GATEWAY_PASSWORD, `${name}: MONGODB_URI password from env`);
        assert.equal(uri.searchParams.get('authSource'), 'admin');
        assert.match(script, new RegExp(`user: '${uri.username}'`));
      }
      assert.match(script, /pwd: process\.env\.MONGODB_GATEWAY_PASSWORD/);
      assert.match(
        script,
        new RegExp(`role: 'readWrite', db: '${apiConfig.store.database}'`),
        'read and write on its database only',
      );
      assert.equal(env.MONGODB_GATEWAY_PASSWORD, environmentOf(service(compose, API)).MONGODB_URI?.match(/:(\$\{[^}]+\})@/)?.[1]);
    });

    it('publishes neither MongoDB, PostgreSQL nor Temporal, and keeps them on an internal network', () => {
      assert.equal(compose.networks?.data?.internal, true, 'the data network is internal');
      for (const name of [MONGODB, POSTGRESQL, TEMPORAL]) {
        assert.deepEqual(portsOf(service(compose, name)), [], `${name} publishes no port`);
        assert.deepEqual(Object.keys(networksOf(service(compose, name))), ['data'], `${name} joins the data network only`);
      }
      for (const [c, name] of [
        [compose, CADDY],
        [loadComposeOverride(compose, 'docker-compose.sandbox.yml'), BANK_SIMULATOR],
      ] as const) {
        assert.ok(!('data' in networksOf(service(c, name))), `${name} cannot reach the stores or Temporal`);
      }
      for (const name of [API, WORKER, ADMIN_TOOLS, TEMPORAL_UI]) {
        assert.ok('data' in networksOf(service(compose, name)), `${name} reaches Temporal`);
      }
    });

    it("configures Temporal UI's codec endpoint: a loopback Caddy site adding a codec-scoped token, CORS for the UI's origin", () => {
      const env = interpolatedEnv(service(compose, TEMPORAL_UI));
      const endpoint = new URL(env.TEMPORAL_CODEC_ENDPOINT ?? '');
      assert.equal(endpoint.pathname, '/ops/v1/codec');
      assert.equal(endpoint.hostname, '127.0.0.1');
      assert.deepEqual(
        portsOf(caddy).filter((p) => p.published === Number(endpoint.port)),
        [{ hostIp: '127.0.0.1', published: Number(endpoint.port), target: Number(endpoint.port) }],
        'the codec site is published on loopback only',
      );
      assert.equal(caddyEnv.CODEC_SITE, `http://:${endpoint.port}`, 'a Caddy site on that port');
      const site = sites['{$CODEC_SITE}'];
      assert.ok(site, 'the codec site');
      assert.match(
        site,
        /@codec path \/ops\/v1\/codec\/decode \/ops\/v1\/codec\/encode\n\s*handle @codec/,
        'forwards the codec endpoint only',
      );
      assert.match(site, /reverse_proxy \{\$OPS_UPSTREAM\}/, "to the API's operator listener");
      assert.equal(caddyEnv.OPS_UPSTREAM, `api:${apiConfig.http.opsPort}`);
      assert.match(site, /header_up Authorization "Bearer \{\$CODEC_TOKEN\}"/, 'a codec-scoped token');
      assert.equal(caddyEnv.OPS_TOKEN, undefined, 'Caddy never holds the break-glass token');
      assert.equal(env.TEMPORAL_CODEC_PASS_ACCESS_TOKEN, 'false');
      assert.equal(env.TEMPORAL_CODEC_INCLUDE_CREDENTIALS, 'false');
      const uiOrigin = `http://127.0.0.1:${portsOf(service(compose, TEMPORAL_UI))[0]?.published}`;
      assert.ok(apiConfig.payloadCodec.corsOrigins.includes(uiOrigin), `CODEC_CORS_ORIGINS has ${uiOrigin}`);
    });

    it('runs Temporal with mTLS: client certificates required, issued by a one-shot job into one volume per user', () => {
      const temporal = service(compose, TEMPORAL);
      const env = environmentOf(temporal);
      assert.equal(env.TEMPORAL_TLS_REQUIRE_CLIENT_AUTH, 'true', 'the frontend requires a client certificate');
      const tlsJob = service(compose, TEMPORAL_TLS);
      assert.equal(dependsOn(temporal)[TEMPORAL_TLS], 'service_completed_successfully', 'certificates exist before Temporal');
      assert.equal(tlsJob.restart, 'no', 'a one-shot job');
      const serverVolume = mountedVolumeOf(temporal, env.TEMPORAL_TLS_FRONTEND_CERT ?? '');
      assert.ok(serverVolume, "the frontend's certificate comes from a volume");
      for (const k of [
        'TEMPORAL_TLS_SERVER_CA_CERT',
        'TEMPORAL_TLS_SERVER_CERT',
        'TEMPORAL_TLS_SERVER_KEY',
        'TEMPORAL_TLS_FRONTEND_KEY',
        'TEMPORAL_TLS_CLIENT1_CA_CERT',
      ]) {
        assert.equal(mountedVolumeOf(temporal, env[k] ?? ''), serverVolume, `${k} in the server's volume`);
      }
      const serverName = env.TEMPORAL_TLS_FRONTEND_SERVER_NAME;
      assert.equal(serverName, TEMPORAL, "the frontend's certificate names the host clients dial");

      // Clients: the gateway's processes with their certificate, the UI and admin-tools with theirs.
      const clients: [string, Record<string, string>, string[]][] = [
        [API, environmentOf(service(compose, API)), ['TEMPORAL_TLS_CA_FILE', 'TEMPORAL_TLS_CERT_FILE', 'TEMPORAL_TLS_KEY_FILE']],
        [
          WORKER,
          environmentOf(service(compose, WORKER)),
          ['TEMPORAL_TLS_CA_FILE', 'TEMPORAL_TLS_CERT_FILE', 'TEMPORAL_TLS_KEY_FILE'],
        ],
        [TEMPORAL_UI, environmentOf(service(compose, TEMPORAL_UI)), ['TEMPORAL_TLS_CA', 'TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY']],
        [
          ADMIN_TOOLS,
          environmentOf(service(compose, ADMIN_TOOLS)),
          ['TEMPORAL_TLS_SERVER_CA_CERT_PATH', 'TEMPORAL_TLS_CLIENT_CERT_PATH', 'TEMPORAL_TLS_CLIENT_KEY_PATH'],
        ],
      ];
      const jobVolumes = Object.fromEntries(
        (tlsJob.volumes ?? []).flatMap((v) =>
          typeof v === 'string' && !/^[./~]/.test(v) ? [v.split(':') as [string, string]] : [],
        ),
      );
      for (const [name, clientEnv, keys] of clients) {
        const volume = mountedVolumeOf(service(compose, name), clientEnv[keys[0]!] ?? '');
        assert.ok(volume && volume in jobVolumes, `${name}: ${keys[0]} in a volume temporal-tls fills`);
        assert.notEqual(volume, serverVolume, `${name} does not get the server's key`);
        for (const k of keys) assert.equal(mountedVolumeOf(service(compose, name), clientEnv[k] ?? ''), volume, `${name}: ${k}`);
        assert.equal(clientEnv.TEMPORAL_TLS_SERVER_NAME, serverName, `${name} checks the frontend's name`);
      }
      assert.equal(environmentOf(service(compose, TEMPORAL_UI)).TEMPORAL_TLS_ENABLE_HOST_VERIFICATION, 'true');
      const gateway = loadConfig(interpolatedEnv(service(compose, API)));
      assert.ok(gateway.temporal.tlsCertFile && gateway.temporal.tlsServerName === serverName);
      // The CA's key stays in the job's own volume.
      const caVolume = Object.entries(jobVolumes).find(([, target]) => target === '/ca')?.[0];
      assert.ok(caVolume);
      for (const [name, s] of Object.entries(compose.services)) {
        if (name !== TEMPORAL_TLS)
          assert.ok(!(s.volumes ?? []).some((v) => String(v).startsWith(`${caVolume}:`)), `${name} mounts the CA`);
      }
    });

    it("temporal-tls's script issues certificates a client of the frontend verifies, and keeps them on a rerun", () => {
      const tlsJob = service(compose, TEMPORAL_TLS);
      const script = hostPath(tlsJob, argv(tlsJob.entrypoint)![1]!);
      assert.ok(script && existsSync(script), 'the job runs a bind-mounted script');
      const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-tls-'));
      try {
        const targets = (tlsJob.volumes ?? []).flatMap((v) =>
          typeof v === 'string' && !/^[./~]/.test(v) ? [v.split(':')[1]!] : [],
        );
        for (const t of targets) mkdirSync(path.join(dir, t));
        const run = () =>
          spawnSync('sh', [script], { encoding: 'utf8', env: { PATH: process.env.PATH, TEMPORAL_TLS_ROOT: dir } });
        const first = run();
        assert.equal(first.status, 0, first.stderr);
        const at = (container: string) => path.join(dir, container);
        const openssl = (...args: string[]) => spawnSync('openssl', args, { encoding: 'utf8' });
        const env = environmentOf(service(compose, TEMPORAL));
        const server = at(env.TEMPORAL_TLS_FRONTEND_CERT!.replace('/etc/temporal/tls', '/server'));
        assert.match(
          openssl('verify', '-CAfile', at('/ca/ca.pem'), server, at('/gateway/client.pem'), at('/tools/client.pem')).stdout,
          /client\.pem: OK\n$/,
        );
        const san = openssl('x509', '-in', server, '-noout', '-ext', 'subjectAltName').stdout;
        assert.match(san, new RegExp(`DNS:${env.TEMPORAL_TLS_FRONTEND_SERVER_NAME}\\b`));
        assert.match(
          openssl('x509', '-in', at('/gateway/client.pem'), '-noout', '-ext', 'extendedKeyUsage').stdout,
          /Client Authentication/,
        );
        assert.ok(!existsSync(at('/gateway/ca.key')) && !existsSync(at('/server/ca.key')), 'the CA key is never copied out');
        const before = readFileSync(at('/gateway/client.pem'), 'utf8');
        assert.equal(run().status, 0);
        assert.equal(readFileSync(at('/gateway/client.pem'), 'utf8'), before, 'a restart keeps the certificates');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('hard-codes no secret: every password, key, secret and token comes from the environment', () => {
      const secretName = /PASSWORD|PWD|SECRET|TOKEN|_KEY$|^MASTER_KEY|MONGODB_URI/;
      const checked: string[] = [];
      for (const [name, s] of Object.entries(compose.services)) {
        for (const [k, v] of Object.entries(environmentOf(s))) {
          if (!secretName.test(k) || k === 'TEMPORAL_CODEC_PASS_ACCESS_TOKEN') continue; // a flag, not a token
          if (/^TEMPORAL_TLS_/.test(k) && mountedVolumeOf(s, v)) continue; // a key file in a volume the job fills
          checked.push(`${name}.${k}`);
          const literal = v.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*(:\?[^}]+|:-)\}/g, '');
          assert.ok(literal === '' || k === 'MONGODB_URI', `${name}: ${k} is not (only) a required \${VAR:?...}: ${v}`);
          if (k === 'MONGODB_URI') assert.doesNotMatch(literal, /\/\/[^@/]*:[^@/]+@/, `${name}: ${k} has a literal password`);
        }
      }
      assert.ok(checked.length >= 12, checked.join(', '));
      assert.doesNotMatch(caddyfile, /Bearer [A-Za-z0-9]/, 'the Caddyfile carries the token only as {$CODEC_TOKEN}');
    });
  });

  describe('image', () => {
    const stages = parseDockerfile(readFileSync(dockerfile, 'utf8'));
    const runtime = stages[stages.length - 1];
    const outputs = buildOutputs();

    it('runs as production unless told otherwise (ENV GATEWAY_ENV=production)', () => {
      const env = instructions(runtime, 'ENV').map((e) => e.replace(/\s+/g, '='));
      assert.ok(env.includes('GATEWAY_ENV=production'), `ENV of the runtime stage: ${JSON.stringify(env)}`);
    });

    /** What `node <script>` runs, as a file of the build (relative to the project root). */
    function builtFileOf(args: string[], workingDir: string): string {
      assert.equal(args[0], 'node', `runs node: ${JSON.stringify(args)}`);
      const inImage = path.posix.resolve(workingDir, args[args.length - 1]);
      for (const copy of instructions(runtime, 'COPY')) {
        const m = /^--from=(\S+)\s+(\S+)\s+(\S+)$/.exec(copy);
        if (!m) continue;
        const from = stages.find((s) => s.name === m[1]);
        assert.ok(from, `COPY --from=${m[1]} names a stage of this Dockerfile`);
        const src = path.posix.resolve(workdir(from), m[2]);
        const dest = path.posix.resolve(workdir(runtime), m[3]);
        const rel = path.posix.relative(dest, inImage);
        if (rel.startsWith('..')) continue;
        const inBuild = path.posix.join(src, rel);
        const fromProject = path.posix.relative(workdir(from), inBuild);
        assert.ok(!fromProject.startsWith('..'), `${inBuild} lies in the build stage's project folder`);
        return fromProject;
      }
      assert.fail(`${inImage} is not copied from a build stage into the runtime image`);
    }

    it('is a multi-stage node:20-slim build: npm ci + npm run build, then production dependencies only, non-root', () => {
      assert.ok(stages.length >= 2, 'multi-stage');
      const build = stages.find((s) => instructions(s, 'RUN').some((r) => /\bnpm run build\b/.test(r)));
      assert.ok(build && build !== runtime, 'a build stage runs npm run build');
      const runs = instructions(build, 'RUN').join('\n');
      assert.ok(
        /\bnpm ci\b/.test(runs) && runs.indexOf('npm ci') < runs.indexOf('npm run build'),
        'build stage: npm ci, then npm run build',
      );
      const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
      assert.match(pkg.scripts.build, /tsconfig\.build\.json/);
      const copied = instructions(build, 'COPY').join('\n');
      const tsBuild = JSON.parse(readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[] };
      for (const f of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', ...tsBuild.include]) {
        assert.ok(
          new RegExp(`(^|\\s)(\\./)?${f.replace(/\./g, '\\.')}/?(\\s|$)`, 'm').test(copied) || /^\.\s/m.test(copied),
          `build stage copies ${f}`,
        );
      }
      assert.match(runtime.base, /^node:20(\.\d+)*(\.\d+)?-slim$/, 'runtime on node:20-slim');
      assert.ok(
        instructions(runtime, 'RUN').some((r) => /\bnpm ci\b.*--omit=dev/.test(r)),
        'runtime: npm ci --omit=dev',
      );
      assert.ok(!instructions(runtime, 'RUN').some((r) => /\bnpm run build\b/.test(r)), 'runtime does not build');
      const user = instructions(runtime, 'USER').pop();
      assert.ok(user && !/^(root|0)(:|$)/.test(user), `runtime runs as a non-root user (USER ${user})`);
    });

    it('runs the api by default and the worker in the worker service, both files the build emits', () => {
      const cmdLine = instructions(runtime, 'CMD').pop();
      assert.ok(cmdLine && cmdLine.startsWith('['), 'CMD in exec form');
      const cmd = JSON.parse(cmdLine) as string[];
      assert.equal(instructions(runtime, 'ENTRYPOINT').length, 0, 'no ENTRYPOINT: the worker service overrides CMD');

      const apiFile = builtFileOf(cmd, workdir(runtime));
      assert.equal(apiFile, 'dist/src/main/api.js');
      assert.ok(outputs.has(apiFile), `the build emits ${apiFile}`);

      const apiCommand = argv(service(compose, API).command);
      if (apiCommand) assert.equal(builtFileOf(apiCommand, service(compose, API).working_dir ?? workdir(runtime)), apiFile);

      const workerService = service(compose, WORKER);
      const workerCommand = argv(workerService.command);
      assert.ok(workerCommand, 'the worker service overrides the command');
      const workerFile = builtFileOf(workerCommand, workerService.working_dir ?? workdir(runtime));
      assert.equal(workerFile, 'dist/src/main/worker.js');
      assert.ok(outputs.has(workerFile), `the build emits ${workerFile}`);

      const bank = service(loadComposeOverride(compose, 'docker-compose.sandbox.yml'), BANK_SIMULATOR);
      const bankFile = builtFileOf((argv(bank.command) ?? []).slice(0, 2), bank.working_dir ?? workdir(runtime));
      assert.equal(bankFile, 'dist/src/main/bank-simulator.js');
      assert.ok(outputs.has(bankFile), `the build emits ${bankFile}`);
    });

    it('ships the workflows the worker bundles at start', () => {
      // src/main/gateway-worker.ts: require.resolve('../../workflows') from dist/src/main.
      const workflows = path.posix.join(path.posix.resolve('/dist/src/main', '../../workflows'), 'index.js').slice(1);
      assert.equal(workflows, 'dist/workflows/index.js');
      assert.ok(outputs.has(workflows), `the build emits ${workflows}`);
      assert.ok(outputs.has('dist/src/main/gateway-worker.js'));
      assert.equal(
        builtFileOf(['node', 'dist/workflows/index.js'], workdir(runtime)),
        workflows,
        'the runtime image has dist/workflows',
      );
    });

    it('builds api and worker from the one Dockerfile', () => {
      const api = buildOf(service(compose, API));
      const worker = buildOf(service(compose, WORKER));
      assert.ok(api && worker, 'api and worker are built');
      assert.deepEqual(worker, api);
      assert.equal(api.context, root);
      assert.equal(api.dockerfile, dockerfile);
      assert.ok(existsSync(path.join(root, '.dockerignore')));
    });
  });

  describe('one set of settings for compose and `npm run stack:production`', () => {
    const ports = stackPorts();
    const secrets = {
      MASTER_KEY: supplied.MASTER_KEY!,
      OPS_TOKEN: supplied.OPS_TOKEN!,
      CODEC_TOKEN: 'mgwop_codec',
      METRICS_TOKEN: 'mgwop_metrics',
      BANK_SIMULATOR_SECRET: supplied.BANK_SIMULATOR_SECRET!,
      BANK_SIMULATOR_ADMIN_TOKEN: supplied.BANK_SIMULATOR_ADMIN_TOKEN!,
      POSTGRES_SUPERUSER_PASSWORD: 'x'.repeat(32),
      POSTGRES_PASSWORD: supplied.POSTGRES_PASSWORD!,
      STORE_PASSWORD: 'y'.repeat(32),
    };
    const native = gatewayEnvironment({ ports, secrets, temporalTlsGatewayDir: '/tls', caddyRootCertificate: '/ca.crt' });

    it('api and worker read deploy/production.env, the file the native stack reads, and set none of its keys again', () => {
      const shared = readEnvFile(gatewayEnvFile);
      assert.ok(Object.keys(shared).length > 0);
      for (const name of [API, WORKER]) {
        const s = service(compose, name);
        assert.deepEqual(envFilesOf(s), [gatewayEnvFile], `${name}: env_file`);
        const again = Object.keys(ownEnvironmentOf(s)).filter((k) => k in shared);
        assert.deepEqual(again, [], `${name} sets ${again.join(', ')} beside deploy/production.env`);
      }
      // The native stack runs production's profile: every setting of the file as it is (GATEWAY_ENV=production).
      for (const [k, v] of Object.entries(shared)) assert.equal(native[k], v, `the native stack's ${k}`);
      assert.equal(native.GATEWAY_ENV, 'production');
    });

    it("the native stack is not docker-compose.sandbox.yml's profile: none of its settings but the bank's address and secret", () => {
      for (const name of [API, WORKER]) {
        const over = environmentOf(
          service(parse(readFileSync(path.join(root, 'docker-compose.sandbox.yml'), 'utf8'), { merge: true }) as Compose, name),
        );
        for (const [k, v] of Object.entries(over)) {
          if (k === 'BANK_BASE_URL' || k === 'BANK_SECRET') continue;
          assert.notEqual(native[k], v, `${name}: the native stack does not set the sandbox profile's ${k}=${v}`);
        }
      }
    });

    it('the native gateway processes set the same variables as compose (but for what a container network needs) and validate as production, their bank the acquirer double', () => {
      const composeKeys = new Set(Object.keys(environmentOf(service(compose, WORKER))));
      // Compose's own: the UI's codec origins, key rotation and upgrade windows are operator options it passes through.
      for (const k of [
        'LOG_LEVEL',
        'PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS',
        'PAYLOAD_CODEC_PLAINTEXT_UNTIL',
        'QR_IMAGE_UNLABELLED_UNTIL',
      ])
        composeKeys.delete(k);
      // The native stack's own: the loopback webhooks of its test.
      const nativeKeys = new Set(Object.keys(native).filter((k) => k !== 'WEBHOOK_ALLOW_LOOPBACK'));
      assert.deepEqual([...nativeKeys].sort(), [...composeKeys].sort());
      const config = loadConfig({ ...native, ...apiEnvironment(ports.api[0]!, ports.ops[0]!, secrets.OPS_TOKEN) });
      assert.equal(config.env, 'production');
      assert.equal(config.bank.connector, 'http');
      assert.equal(config.sandbox.enabled, false);
      assert.equal(config.temporal.timeSkipping, false);
      assert.equal(config.bank.baseUrl, acquirerUrlOf(ports));
      assert.equal(new URL(config.bank.baseUrl!).protocol, 'https:', 'production requires an https bank');
      assert.equal(
        new URL(config.bank.baseUrl!).hostname,
        '127.0.0.1',
        'the acquirer double on loopback, not behind the public Caddy',
      );
      assert.equal(
        config.bank.secret,
        secrets.BANK_SIMULATOR_SECRET,
        "the simulator's own secret, no real acquirer's BANK_SECRET",
      );
      assert.equal(config.http.trustProxy, loadConfig(interpolatedEnv(service(compose, API))).http.trustProxy);
      // Nothing else changes between this and compose's production but the bank.
      const production = loadConfig(interpolatedEnv(service(compose, WORKER)), {}, false);
      assert.equal(config.bank.connector, production.bank.connector);
      assert.equal(config.sandbox.enabled, production.sandbox.enabled);
      assert.equal(config.store.database, production.store.database);
      assert.equal(config.temporal.namespace, production.temporal.namespace);
      assert.equal(config.temporal.taskQueue, production.temporal.taskQueue);
    });

    it('the Temporal server and its schema job read deploy/temporal/server.env in both, and set none of its keys again', () => {
      const shared = readEnvFile(temporalServerEnvFile);
      for (const name of [TEMPORAL, TEMPORAL_SCHEMA]) {
        const s = service(compose, name);
        assert.deepEqual(envFilesOf(s), [temporalServerEnvFile], `${name}: env_file`);
        const again = Object.keys(ownEnvironmentOf(s)).filter((k) => k in shared);
        assert.deepEqual(again, [], `${name} sets ${again.join(', ')} beside deploy/temporal/server.env`);
      }
      const nativeServer = temporalServerEnv({ ports, postgresPassword: 'p', tlsRoot: '/tls' });
      for (const [k, v] of Object.entries(shared)) assert.equal(nativeServer[k], v, `the native server's ${k}`);
      // The same TLS variables, pointing at the same files of temporal-tls's server volume.
      const composeTls = Object.entries(ownEnvironmentOf(service(compose, TEMPORAL))).filter(([k]) =>
        k.startsWith('TEMPORAL_TLS_'),
      );
      for (const [k, v] of composeTls) assert.equal(path.basename(nativeServer[k] ?? ''), path.basename(v), k);
    });

    it('Caddy gets every variable the Caddyfile reads in both', () => {
      const text = readFileSync(path.join(root, 'deploy', 'caddy', 'Caddyfile'), 'utf8').replace(/^\s*#.*$/gm, '');
      const required = [...text.matchAll(/\{\$([A-Z_]+)\}/g)].map((m) => m[1]!);
      assert.ok(required.includes('API_UPSTREAMS'));
      const composeCaddy = environmentOf(service(compose, CADDY));
      const nativeCaddy = caddyEnvironment(ports, secrets.CODEC_TOKEN);
      for (const k of new Set(required)) {
        assert.ok(composeCaddy[k], `compose's caddy sets ${k}`);
        assert.ok(nativeCaddy[k], `the native stack's Caddy gets ${k}`);
      }
    });
  });

  describe('search attributes (admin-tools job)', () => {
    const yamlFile = path.join(root, 'temporal-config', 'search-attributes.yaml');

    it('registers exactly the search attributes of temporal-config/search-attributes.yaml', () => {
      const expected = searchAttributesIn(yamlFile);
      const job = service(compose, ADMIN_TOOLS);
      const env = interpolatedEnv(job);
      const r = runRegistration(adminJobArgv(compose), env);
      assert.equal(r.status, 0, `the job fails: ${r.stderr}`);
      assert.deepEqual(asMap(r.creates), sorted(expected));
      assert.equal(r.creates.length, Object.keys(expected).length, 'each attribute registered once');
      const ns = loadConfig(interpolatedEnv(service(compose, API))).temporal.namespace;
      for (const c of r.creates)
        assert.equal(c.namespace ?? env.TEMPORAL_NAMESPACE ?? 'default', ns, `${c.name} in namespace ${ns}`);
    });

    it('creates the namespace when the server has none (no auto-setup image does it), and only then', () => {
      const env = interpolatedEnv(service(compose, ADMIN_TOOLS));
      const fresh = runRegistration(adminJobArgv(compose), env, 0, false);
      assert.equal(fresh.status, 0, fresh.stderr);
      assert.equal(fresh.namespaceCreates.length, 1, fresh.namespaceCreates.join('\n'));
      assert.match(fresh.namespaceCreates[0]!, /--namespace default\b/);
      assert.match(fresh.namespaceCreates[0]!, /--retention \S+/);
      assert.equal(fresh.creates.length, Object.keys(searchAttributesIn(yamlFile)).length);
      assert.deepEqual(runRegistration(adminJobArgv(compose), env).namespaceCreates, [], 'an existing namespace is kept');
    });

    it('reads the YAML, so a changed list is registered as it stands', () => {
      const args = adminJobArgv(compose);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-config-'));
      try {
        cpSync(path.join(root, 'temporal-config'), dir, { recursive: true });
        const [first, ...others] = Object.keys(searchAttributesIn(yamlFile));
        const changed = { ...Object.fromEntries(others.map((k) => [k, 'Keyword'])), PayerVpa: 'Text', Amount: 'Double' };
        writeFileSync(
          path.join(dir, 'search-attributes.yaml'),
          `# changed copy\nsearchAttributes:\n${Object.entries(changed)
            .map(([k, v]) => `  ${k}: ${v}`)
            .join('\n')}\n`,
        );
        const moved = args.map((a) =>
          a.startsWith(path.join(root, 'temporal-config'))
            ? path.join(dir, path.relative(path.join(root, 'temporal-config'), a))
            : a,
        );
        assert.notDeepEqual(moved, args, 'the job runs files from temporal-config/');
        const r = runRegistration(moved, interpolatedEnv(service(compose, ADMIN_TOOLS)));
        assert.equal(r.status, 0, r.stderr);
        assert.deepEqual(asMap(r.creates), sorted(changed));
        assert.ok(!r.creates.some((c) => c.name === first), `${first} was removed from the list`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("sets the namespace's retention of temporal-config/namespace.yaml, longer than a webhook's retries, as the server creates it", () => {
      const { retention } = parse(readFileSync(path.join(root, 'temporal-config', 'namespace.yaml'), 'utf8')) as {
        retention: string;
      };
      assert.equal(retention, '168h', 'seven days (temporal-config/namespace.yaml says why)');
      const webhookRetriesMs = loadConfig(interpolatedEnv(service(compose, WORKER)), {}, false).webhooks.retryScheduleMs.reduce(
        (a, b) => a + b,
        0,
      );
      assert.ok(168 * 3_600_000 > webhookRetriesMs, 'closed deliveries outlive the longest retry schedule');
      const env = interpolatedEnv(service(compose, ADMIN_TOOLS));
      const fresh = runRegistration(adminJobArgv(compose), env, 0, false);
      assert.equal(fresh.status, 0, fresh.stderr);
      assert.match(fresh.namespaceCreates[0] ?? '', new RegExp(`--retention ${retention}\\b`), 'created with it');
      const r = runRegistration(adminJobArgv(compose), env);
      assert.equal(r.status, 0, r.stderr);
      const ns = loadConfig(interpolatedEnv(service(compose, API))).temporal.namespace;
      assert.deepEqual(
        r.retentions.map((u) => ({ namespace: u.namespace ?? env.TEMPORAL_NAMESPACE ?? 'default', retention: u.retention })),
        [{ namespace: ns, retention }],
        'an existing namespace is updated to it',
      );
    });

    it('waits for the server, and fails instead of registering when it never serves', () => {
      const args = adminJobArgv(compose);
      const env = interpolatedEnv(service(compose, ADMIN_TOOLS));
      const late = runRegistration(args, env, 3);
      assert.equal(late.status, 0, late.stderr);
      assert.ok(late.healthChecks >= 4, `polled until serving (${late.healthChecks} health checks)`);
      assert.equal(late.creates.length, Object.keys(searchAttributesIn(yamlFile)).length);

      const never = runRegistration(args, { ...env, WAIT_ATTEMPTS: '3' }, 1000);
      assert.notEqual(never.status, 0, 'the job fails when Temporal never serves');
      assert.deepEqual(never.creates, []);
    });
  });
});
