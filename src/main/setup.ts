/**
 * `npm run setup` (also the first step of `npm start` and `npm test`): installs the local servers.
 * FerretDB is skipped when MONGODB_URI points at a real MongoDB.
 */
import { installLocalServers, SetupError } from '../devstack/install';

try {
  installLocalServers({ ferretdb: !process.env.MONGODB_URI, log: (line) => console.log(`[setup] ${line}`) });
} catch (e) {
  if (!(e instanceof SetupError)) throw e;
  console.error(`[setup] ${e.message}`);
  process.exit(1);
}
