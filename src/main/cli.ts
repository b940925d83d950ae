/**
 * Operator CLI. `npm run -s cli -- merchant create --name <name> [--webhook-url <url>]` prints the
 * new merchant's credentials as one JSON object on stdout and nothing else (diagnostics go to stderr).
 */
import { parseArgs } from 'node:util';
import { createMerchantSchema } from '../api/schemas/ops';
import { MerchantRepository } from '../store/merchant-repository';
import { connectStore } from '../store/mongo';
import { provisionMerchant } from '../usecases/provision-merchant';
import { configOrExit, storeUri } from './load-config';

const USAGE = 'usage: cli merchant create --name <name> [--webhook-url <url>]';

async function main(argv: string[]): Promise<number> {
  const [resource, action, ...rest] = argv;
  if (resource !== 'merchant' || action !== 'create') {
    console.error(USAGE);
    return 2;
  }
  let values: { name?: string; 'webhook-url'?: string };
  try {
    ({ values } = parseArgs({ args: rest, options: { name: { type: 'string' }, 'webhook-url': { type: 'string' } } }));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const input = createMerchantSchema.safeParse({ name: values.name, webhookUrl: values['webhook-url'] });
  if (!input.success) {
    console.error(
      input.error.issues
        .map((i) => `--${i.path.join('.') === 'webhookUrl' ? 'webhook-url' : i.path.join('.')}: ${i.message}`)
        .join('\n'),
    );
    console.error(USAGE);
    return 2;
  }

  const config = configOrExit();
  const uri = storeUri(config);
  const store = await connectStore(uri, config.MONGODB_DB).catch((e: Error) => {
    throw new Error(`cannot reach the store at ${uri} (${e.message}); start the local stack with npm start or set MONGODB_URI`);
  });
  try {
    const credentials = await provisionMerchant(new MerchantRepository(store.db, config.MASTER_KEY), input.data, new Date());
    process.stdout.write(`${JSON.stringify(credentials)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: Error) => {
    console.error(e.message);
    process.exit(1);
  },
);
