import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { devstackDir, ferretdbModuleDir } from '../../src/devstack/paths';

/**
 * FerretDB exactly as released, without devstack/ferretdb/gateway.patch: the same module built with
 * the committed go.mod (no replace), for the differential test to compare the patched store with.
 * Built once into .devstack/bin and rebuilt when the module changes; a few seconds once Go's build
 * cache holds the patched build's packages, minutes on a cold cache. Returns undefined without go.
 */
export function unpatchedFerretdbBinary(log: (line: string) => void): string | undefined {
  const binary = path.join(devstackDir, 'bin', 'ferretdb-unpatched');
  const stamp = `${binary}.stamp`;
  const h = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) h.update(readFileSync(path.join(ferretdbModuleDir, f)));
  const wanted = h.digest('hex');
  if (existsSync(binary) && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return binary;

  if (spawnSync('go', ['version']).status !== 0) return undefined;
  log(`building the unpatched FerretDB into ${path.relative(process.cwd(), binary)}`);
  mkdirSync(path.dirname(binary), { recursive: true });
  const r = spawnSync('go', ['build', '-trimpath', '-o', binary, '.'], { cwd: ferretdbModuleDir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the unpatched FerretDB failed:\n${r.stderr}`);
  writeFileSync(stamp, wanted);
  return binary;
}
