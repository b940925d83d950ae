import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { SetupError } from '../install';
import { postgresqlBinDir } from './postgresql';

/** The operating system's programs the production stack runs, looked up where the stack runs them. */

export function findCaddy(): string {
  const r = spawnSync('caddy', ['version'], { encoding: 'utf8' });
  if (r.status !== 0) {
    throw new SetupError(
      "Caddy was not found on PATH. The production stack runs the operating system's Caddy: apt-get update && apt-get install -y caddy",
    );
  }
  return 'caddy';
}

/**
 * The Debian packages the stack runs that this machine lacks (caddy, postgresql, libfaketime), as
 * the stack looks for them: .ci/run installs exactly these before `npm run test:production-stack`.
 */
export function missingDebianPackages(): string[] {
  const missing: string[] = [];
  const lacks = (find: () => unknown) => {
    try {
      find();
      return false;
    } catch (e) {
      if (e instanceof SetupError) return true;
      throw e;
    }
  };
  if (lacks(findCaddy)) missing.push('caddy');
  if (lacks(postgresqlBinDir)) missing.push('postgresql');
  if (lacks(findLibfaketime)) missing.push('libfaketime');
  return missing;
}

/** libfaketime's thread-safe library (Debian: apt-get install libfaketime), for movableClock. */
export function findLibfaketime(): string {
  const candidates = [
    ...(existsSync('/usr/lib') ? readdirSync('/usr/lib').map((d) => path.join('/usr/lib', d, 'faketime')) : []),
    '/usr/lib/faketime',
    '/usr/local/lib/faketime',
  ];
  for (const dir of candidates) {
    const lib = path.join(dir, 'libfaketimeMT.so.1');
    if (existsSync(lib)) return lib;
  }
  throw new SetupError(
    "libfaketime was not found. The production stack's probes move the API replicas' clock with it: apt-get update && apt-get install -y libfaketime",
  );
}
