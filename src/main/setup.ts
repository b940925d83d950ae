/**
 * `npm run setup` (also the first step of `npm test`; `npm start` does the same itself): installs
 * the local servers. The Temporal wheels are always needed (the tests use the time-skipping test
 * server); FerretDB is skipped when MONGODB_URI points at a real MongoDB; schemathesis (the fuzzer)
 * comes with `--fuzzer`.
 */
import { setupSettings } from '../config-tools';
import { installLocalServers, SetupError } from '../devstack/install';

try {
  installLocalServers({
    temporal: true,
    ferretdb: setupSettings(process.env).installFerretDb,
    fuzzer: process.argv.includes('--fuzzer'),
    log: (line) => console.log(`[setup] ${line}`),
  });
} catch (e) {
  if (!(e instanceof SetupError)) throw e;
  console.error(`[setup] ${e.message}`);
  process.exit(1);
}
