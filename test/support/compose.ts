import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { strict as assert } from 'node:assert';
import { readEnvFile } from '../../src/devstack/production/settings';

/** docker-compose files, read as compose reads them (for the static tests of test/deploy). */
export const root = path.resolve(__dirname, '../..');

export interface Service {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string | string[];
  entrypoint?: string | string[];
  environment?: Record<string, string | number | boolean | null> | string[];
  env_file?: string | string[];
  ports?: (string | number | { target: number | string; published?: number | string })[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  volumes?: (string | { type?: string; source?: string; target: string })[];
  healthcheck?: { test?: string | string[]; disable?: boolean };
  working_dir?: string;
  restart?: string;
  networks?: string[] | Record<string, { aliases?: string[] } | null>;
  network_mode?: string;
}

export interface Compose {
  services: Record<string, Service>;
  networks?: Record<string, { internal?: boolean } | null>;
}

export function loadCompose(): Compose {
  // Compose resolves YAML merge keys (`<<: *anchor`); so does this parse.
  const doc = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as Compose;
  assert.ok(doc && typeof doc.services === 'object', 'docker-compose.yml has no services');
  return doc;
}

/**
 * docker-compose.yml with a profile's file (docker-compose.sandbox.yml, docker-compose.cluster.yml)
 * over it, merged as compose merges: services' environment maps key by key, networks by name,
 * everything else replaced.
 */
export function loadComposeOverride(base: Compose, file: string): Compose {
  const over = parse(readFileSync(path.join(root, file), 'utf8'), { merge: true }) as Compose;
  const services: Record<string, Service> = { ...base.services };
  for (const [name, s] of Object.entries(over.services)) {
    const b = base.services[name];
    if (!b) {
      services[name] = s;
      continue;
    }
    const networks = { ...networksOfRaw(b), ...networksOfRaw(s) };
    services[name] = {
      ...b,
      ...s,
      environment: { ...environmentOf(b), ...environmentOf(s) },
      ...(s.networks ? { networks } : {}),
    };
  }
  return { services, networks: { ...base.networks, ...over.networks } };
}

export const networksOfRaw = (s: Service): Record<string, { aliases?: string[] } | null> => {
  const n = s.networks ?? ['default'];
  return Array.isArray(n) ? Object.fromEntries(n.map((name) => [name, null])) : n;
};

export function service(c: Compose, name: string): Service {
  const s = c.services[name];
  assert.ok(s, `docker-compose.yml has no service "${name}"`);
  return s;
}

/** The env files a service reads (env_file), as absolute paths. */
export const envFilesOf = (s: Service): string[] =>
  (s.env_file === undefined ? [] : Array.isArray(s.env_file) ? s.env_file : [s.env_file]).map((f) => path.resolve(root, f));

/** The environment a service sets, raw (before interpolation): its env files, then environment (list or map syntax) over them. */
export function environmentOf(s: Service): Record<string, string> {
  const fromFiles = Object.assign({}, ...envFilesOf(s).map((f) => readEnvFile(f))) as Record<string, string>;
  return { ...fromFiles, ...ownEnvironmentOf(s) };
}

/** What a service's `environment` sets (not its env files). */
export function ownEnvironmentOf(s: Service): Record<string, string> {
  const env = s.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const i = entry.indexOf('=');
        return i < 0 ? [entry, ''] : [entry.slice(0, i), entry.slice(i + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}
