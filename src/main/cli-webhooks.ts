/**
 * CLI commands on webhook deliveries (dispatched from cli.ts):
 *
 *   npm run -s cli -- webhooks list [--merchant <merchantIdentifier>] [--state pending|delivered|failed] [--limit <n>]
 *   npm run -s cli -- webhooks replay <deliveryId>        (a new delivery of the same bytes, linked to the first)
 *   npm run -s cli -- webhooks replay --since <ISO time> [--merchant <merchantIdentifier>]   (every failed one since)
 *   npm run -s cli -- webhooks secret <merchantIdentifier>   (the Standard Webhooks signing secrets in use)
 *   npm run -s cli -- webhooks rotate-secret <merchantIdentifier> [--overlap <wait, e.g. 24h>]
 *   npm run -s cli -- webhooks endpoint <merchantIdentifier>   (the endpoint's health: enabled or disabled, since when)
 *   npm run -s cli -- webhooks enable <merchantIdentifier>     (a disabled endpoint is called again)
 */
import { parseArgs } from 'node:util';
import { listWebhooksQuerySchema, replayFailedSchema } from '../api/schemas/webhooks';
import type { Config } from '../config';
import type { Store } from '../store/mongo';
import { parseDurationList } from '../domain/durations';
import { MerchantRepository, type WebhookSigningSecret } from '../store/merchant-repository';
import { WebhookRepository } from '../store/webhook-repository';
import { WebhookEndpointRepository } from '../store/webhook-endpoint-repository';
import { connectTemporalClient } from '../temporal/client';
import { temporalTls } from '../temporal/tls';
import { replayDelivery, replayFailedSince, type ReplayDeps } from '../usecases/replay-webhook';
import { temporalAddress } from './load-config';

export const WEBHOOK_USAGE = [
  '       cli webhooks list [--merchant <merchantIdentifier>] [--state pending|delivered|failed] [--limit <n>]',
  '       cli webhooks replay <deliveryId> | --since <ISO time> [--merchant <merchantIdentifier>]',
  '       cli webhooks secret <merchantIdentifier>',
  '       cli webhooks rotate-secret <merchantIdentifier> [--overlap <wait such as 24h>]',
  '       cli webhooks endpoint <merchantIdentifier>',
  '       cli webhooks enable <merchantIdentifier>',
];

type Run = (c: { store: Store; config: Config }) => Promise<unknown>;

/** The webhook commands; `usage` makes the error cli.ts reports as a usage error (exit 2). */
export function webhookCommands(usage: (message: string) => Error): Record<string, (args: string[]) => Promise<Run>> {
  const options = (args: string[]) => {
    try {
      return parseArgs({
        args,
        options: {
          merchant: { type: 'string' },
          state: { type: 'string' },
          limit: { type: 'string' },
          since: { type: 'string' },
          overlap: { type: 'string' },
        },
        allowPositionals: true,
      });
    } catch (e) {
      throw usage((e as Error).message);
    }
  };
  const checked = <T>(
    r: { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
  ) => {
    if (r.success) return r.data;
    throw usage(r.error.issues.map((i) => `--${String(i.path[0] ?? '')}: ${i.message}`).join('\n'));
  };

  return {
    async 'webhooks list'(args) {
      const { values, positionals } = options(args);
      if (positionals.length || values.since !== undefined) throw usage('webhooks list takes --merchant, --state and --limit');
      const query = checked(
        listWebhooksQuerySchema.safeParse({
          ...(values.merchant !== undefined ? { merchantIdentifier: values.merchant } : {}),
          ...(values.state !== undefined ? { state: values.state } : {}),
          ...(values.limit !== undefined ? { limit: values.limit } : {}),
        }),
      );
      const { limit, ...filter } = query;
      return async ({ store, config }) => {
        const found = await new WebhookRepository(store.db, config.MASTER_KEY).list(filter, limit);
        return found.map(({ contentType: _type, ...d }) => d);
      };
    },
    async 'webhooks replay'(args) {
      const { values, positionals } = options(args);
      if (values.state !== undefined || values.limit !== undefined) throw usage('webhooks replay takes a deliveryId or --since');
      if ((positionals.length === 1) === (values.since !== undefined))
        throw usage('give either one deliveryId or --since <ISO time>');
      const all =
        values.since !== undefined
          ? checked(
              replayFailedSchema.safeParse({
                since: values.since,
                ...(values.merchant !== undefined ? { merchantIdentifier: values.merchant } : {}),
              }),
            )
          : null;
      return async ({ store, config }) => {
        const temporal = await connectTemporalClient(temporalAddress(config), config.TEMPORAL_NAMESPACE, {
          masterKey: config.MASTER_KEY,
          previousMasterKeys: config.PAYLOAD_CODEC_PREVIOUS_MASTER_KEYS,
          tls: temporalTls(config),
        });
        try {
          const deps: ReplayDeps = {
            webhooks: new WebhookRepository(store.db, config.MASTER_KEY),
            temporal,
            taskQueue: config.TEMPORAL_TASK_QUEUE,
          };
          if (all) return { replayed: await replayFailedSince(deps, new Date(all.since), all.merchantIdentifier) };
          const replayId = await replayDelivery(deps, positionals[0]!);
          if (!replayId) throw new Error(`no webhook delivery ${positionals[0]}`);
          return { deliveryId: positionals[0], replayId };
        } finally {
          await temporal.connection.close();
        }
      };
    },
    async 'webhooks secret'(args) {
      const { values, positionals } = options(args);
      if (positionals.length !== 1 || Object.keys(values).length) throw usage('webhooks secret takes one merchantIdentifier');
      return async ({ store, config }) => {
        const merchants = new MerchantRepository(store.db, config.MASTER_KEY);
        return signingSecrets(positionals[0]!, await merchants.webhookSigningSecrets(positionals[0]!, new Date()));
      };
    },
    async 'webhooks rotate-secret'(args) {
      const { values, positionals } = options(args);
      const { overlap, ...rest } = values;
      if (positionals.length !== 1 || Object.keys(rest).length)
        throw usage('webhooks rotate-secret takes one merchantIdentifier and --overlap');
      if (overlap !== undefined && !/^\s*\d+(ms|s|m|h)?\s*$/.test(overlap)) throw usage('--overlap: a wait such as 24h');
      return async ({ store, config }) => {
        const overlapMs = parseDurationList(overlap ?? config.WEBHOOK_SECRET_ROTATION_OVERLAP)[0]!;
        const merchants = new MerchantRepository(store.db, config.MASTER_KEY);
        return signingSecrets(
          positionals[0]!,
          await merchants.rotateWebhookSigningSecret(positionals[0]!, overlapMs, new Date()),
        );
      };
    },
    async 'webhooks endpoint'(args) {
      const merchantIdentifier = oneMerchant(args, 'webhooks endpoint');
      return async ({ store, config }) => {
        await knownMerchant(store, config, merchantIdentifier);
        return new WebhookEndpointRepository(store.db).health(merchantIdentifier);
      };
    },
    async 'webhooks enable'(args) {
      const merchantIdentifier = oneMerchant(args, 'webhooks enable');
      return async ({ store, config }) => {
        await knownMerchant(store, config, merchantIdentifier);
        return new WebhookEndpointRepository(store.db).enable(merchantIdentifier, new Date());
      };
    },
  };

  function oneMerchant(args: string[], command: string): string {
    const { values, positionals } = options(args);
    if (positionals.length !== 1 || Object.keys(values).length) throw usage(`${command} takes one merchantIdentifier`);
    return positionals[0]!;
  }
}

async function knownMerchant(store: Store, config: Config, merchantIdentifier: string): Promise<void> {
  if (!(await new MerchantRepository(store.db, config.MASTER_KEY).findById(merchantIdentifier)))
    throw new Error(`no merchant ${merchantIdentifier}`);
}

function signingSecrets(merchantIdentifier: string, secrets: WebhookSigningSecret[] | null) {
  if (!secrets) throw new Error(`no merchant ${merchantIdentifier}`);
  return { merchantIdentifier, secrets };
}
