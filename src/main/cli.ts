/**
 * Operator CLI, one command per operation. Each prints one JSON object on stdout and nothing else
 * (diagnostics go to stderr); a usage error exits 2.
 *
 *   npm run -s cli -- merchant create --name <name> [--webhook-url <url>] [--merchant-identifier <id> --secret-key <key>]
 *   npm run -s cli -- merchant update <merchantIdentifier> [--webhook-url <url|"">] [--webhook-format form|json]
 *                                     [--auto-refund true|false] [--default-return-url <url|"">]
 *   npm run -s cli -- merchant invite <merchantIdentifier> --email <email> [--role owner|developer|viewer]
 *                                     (a one-time dashboard invitation link; owner by default)
 *   npm run -s cli -- reconcile <file.csv>      (waits for the file to be applied, prints the report)
 *   npm run -s cli -- webhooks list|replay ...  (see cli-webhooks.ts)
 *   npm run -s cli -- keys list|create|revoke|rotate-secret|rotate-rsa|retire-rsa ...  (see cli-keys.ts)
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { z } from 'zod';
import { createMerchantSchema, merchantSettingsSchema } from '../api/schemas/ops';
import { MerchantRepository } from '../store/merchant-repository';
import { connectStore, type Store } from '../store/mongo';
import { provisionMerchant } from '../usecases/provision-merchant';
import { updateMerchant } from '../usecases/update-merchant';
import { invitationRequestSchema } from '../api/schemas/dashboard';
import { DashboardInvitationRepository } from '../store/dashboard-invitation-repository';
import { DashboardUserRepository } from '../store/dashboard-user-repository';
import { createInvitation } from '../usecases/dashboard-invitations';
import { configOrExit, storeUri, temporalAddress } from './load-config';
import type { Config } from '../config';
import { ReconciliationFileError } from '../domain/reconciliation';
import { ReconciliationRepository } from '../store/reconciliation-repository';
import { connectTemporalClient, testServiceOf } from '../temporal/client';
import { temporalTls } from '../temporal/tls';
import { TestServerClock } from '../temporal/test-server-clock';
import { startReconciliation } from '../usecases/reconcile';
import { WEBHOOK_USAGE, webhookCommands } from './cli-webhooks';
import { KEY_USAGE, keyCommands } from './cli-keys';

const USAGE = [
  'usage: cli merchant create --name <name> [--webhook-url <url>] [--merchant-identifier <id>] [--secret-key <key>]',
  '       cli merchant update <merchantIdentifier> [--webhook-url <url|"">] [--webhook-format form|json] [--auto-refund true|false]',
  '                                            [--default-return-url <url|"">]',
  '       cli merchant invite <merchantIdentifier> --email <email> [--role owner|developer|viewer]',
  '       cli reconcile <file.csv>',
  ...WEBHOOK_USAGE,
  ...KEY_USAGE,
].join('\n');

class UsageError extends Error {}

const FLAG_OF: Record<string, string> = {
  webhookUrl: 'webhook-url',
  webhookFormat: 'webhook-format',
  autoRefund: 'auto-refund',
  defaultReturnUrl: 'default-return-url',
  merchantIdentifier: 'merchant-identifier',
  secretKey: 'secret-key',
};

/** Validates with the API's own schema, naming the CLI flags in the message. */
function validated<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new UsageError(
    parsed.error.issues
      .map((i) => (i.path.length ? `--${FLAG_OF[String(i.path[0])] ?? i.path.join('.')}: ${i.message}` : i.message))
      .join('\n'),
  );
}

function options<T extends Record<string, { type: 'string' }>>(args: string[], spec: T) {
  try {
    return parseArgs({ args, options: spec, allowPositionals: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

interface Connected {
  store: Store;
  config: Config;
}

const commands: Record<string, (args: string[]) => Promise<(c: Connected) => Promise<unknown>>> = {
  ...webhookCommands((message) => new UsageError(message)),
  ...keyCommands((message) => new UsageError(message)),
  async 'merchant create'(args) {
    const { values, positionals } = options(args, {
      name: { type: 'string' },
      'webhook-url': { type: 'string' },
      'merchant-identifier': { type: 'string' },
      'secret-key': { type: 'string' },
    });
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const input = validated(createMerchantSchema, {
      name: values.name,
      webhookUrl: values['webhook-url'],
      merchantIdentifier: values['merchant-identifier'],
      secretKey: values['secret-key'],
    });
    // A taken identifier fails with its message (exit 1), nothing stored.
    return ({ store, config }) => provisionMerchant(new MerchantRepository(store.db, config.MASTER_KEY), input, new Date());
  },
  async 'merchant update'(args) {
    const { values, positionals } = options(args, {
      'webhook-url': { type: 'string' },
      'webhook-format': { type: 'string' },
      'auto-refund': { type: 'string' },
      'default-return-url': { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError('give the merchantIdentifier to update');
    const autoRefund = values['auto-refund'];
    if (autoRefund !== undefined && autoRefund !== 'true' && autoRefund !== 'false')
      throw new UsageError('--auto-refund: true or false');
    const settings = validated(merchantSettingsSchema, {
      ...(values['webhook-url'] !== undefined ? { webhookUrl: values['webhook-url'] === '' ? null : values['webhook-url'] } : {}),
      ...(values['webhook-format'] !== undefined ? { webhookFormat: values['webhook-format'] } : {}),
      ...(autoRefund !== undefined ? { autoRefund: autoRefund === 'true' } : {}),
      ...(values['default-return-url'] !== undefined
        ? { defaultReturnUrl: values['default-return-url'] === '' ? null : values['default-return-url'] }
        : {}),
    });
    return async ({ store, config }) => {
      const updated = await updateMerchant(new MerchantRepository(store.db, config.MASTER_KEY), positionals[0]!, settings);
      if (!updated) throw new Error(`no merchant ${positionals[0]}`);
      return updated;
    };
  },
  async 'merchant invite'(args) {
    const { values, positionals } = options(args, { email: { type: 'string' }, role: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('give the merchantIdentifier to invite a user to');
    const input = validated(invitationRequestSchema, { email: values.email, role: values.role });
    return async ({ store, config }) => {
      const invitation = await createInvitation(
        {
          merchants: new MerchantRepository(store.db, config.MASTER_KEY),
          dashboardUsers: new DashboardUserRepository(store.db),
          dashboardInvitations: new DashboardInvitationRepository(store.db),
          now: () => new Date(),
          publicBaseUrl: config.PUBLIC_BASE_URL,
          invitationHours: config.DASHBOARD_INVITATION_HOURS,
        },
        positionals[0]!,
        { ...input, invitedBy: 'operator' },
      );
      return { ...invitation, expiresAt: invitation.expiresAt.toISOString() };
    };
  },
  async reconcile(args) {
    const { positionals } = options(args, {});
    if (positionals.length !== 1) throw new UsageError('give the reconciliation file');
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(positionals[0]!));
    } catch (e) {
      throw new UsageError(`cannot read ${positionals[0]}: ${(e as Error).message}`);
    }
    return async ({ store, config }) => {
      const temporal = await connectTemporalClient(temporalAddress(config), config.TEMPORAL_NAMESPACE, {
        timeSkipping: config.TIME_SKIPPING,
        masterKey: config.MASTER_KEY,
        previousMasterKeys: config.PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS,
        tls: temporalTls(config),
      });
      try {
        // In time-skipping mode the reconciliation is stamped with the test server's time, as the API would.
        const clock = config.TIME_SKIPPING ? await TestServerClock.start(testServiceOf(temporal)) : null;
        const reconciliations = new ReconciliationRepository(store.db);
        const id = await startReconciliation(
          { reconciliations, temporal, taskQueue: config.TEMPORAL_TASK_QUEUE, now: clock ? () => clock.now() : () => new Date() },
          text,
        ).catch((e: unknown) => {
          throw e instanceof ReconciliationFileError ? new Error(`${positionals[0]}: ${e.message}`) : e;
        });
        console.error(`reconciliation ${id} started; waiting for it to finish`);
        await temporal.workflow.getHandle(`reconciliation:${id}`).result();
        return reconciliations.report(id);
      } finally {
        await temporal.connection.close();
      }
    };
  },
};

async function main(argv: string[]): Promise<number> {
  const [resource, action, ...rest] = argv;
  const command = resource === 'reconcile' ? commands.reconcile : commands[`${resource} ${action}`];
  if (resource === 'reconcile' && action !== undefined) rest.unshift(action);
  let run: Awaited<ReturnType<NonNullable<typeof command>>>;
  try {
    if (!command) throw new UsageError('unknown command');
    run = await command(rest);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`${e.message}\n${USAGE}`);
    return 2;
  }

  const config = configOrExit();
  const uri = storeUri(config);
  const store = await connectStore(uri, config.MONGODB_DB).catch((e: Error) => {
    throw new Error(`cannot reach the store at ${uri} (${e.message}); start the local stack with npm start or set MONGODB_URI`);
  });
  try {
    process.stdout.write(`${JSON.stringify(await run({ store, config }))}\n`);
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
