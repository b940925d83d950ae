import type { Command } from 'commander';
import { listWebhooksQuerySchema, replayFailedSchema, rotateSigningSecretSchema } from '../../api/schemas/webhooks';
import type { CliContext } from '../context';
import { renderTable } from '../table';
import { validated, waitSecondsArg } from '../validate';

interface Delivery {
  deliveryId: string;
  merchantIdentifier: string;
  state: string;
  createdAt: string;
  replayOf?: string;
  failureReason?: string;
  supersededBy?: string;
  attempts: { httpStatus: number | null; error: string | null }[];
}

const FLAG_OF = {
  merchantIdentifier: '--merchant',
  state: '--state',
  limit: '--limit',
  since: '--since',
  overlapSeconds: '--overlap',
};

const lastOutcome = (d: Delivery) => {
  const last = d.attempts.at(-1);
  return last ? String(last.httpStatus ?? last.error ?? '') : '';
};

const DELIVERY_COLUMNS = [
  { header: 'DELIVERY', cell: (d: Delivery) => d.deliveryId },
  {
    header: 'STATE',
    cell: (d: Delivery) =>
      d.state + (d.failureReason ? ` (${d.failureReason})` : '') + (d.supersededBy ? ` (by ${d.supersededBy})` : ''),
  },
  { header: 'ATTEMPTS', cell: (d: Delivery) => String(d.attempts.length) },
  { header: 'LAST', cell: lastOutcome },
  { header: 'CREATED', cell: (d: Delivery) => d.createdAt },
  { header: 'REPLAY OF', cell: (d: Delivery) => d.replayOf ?? '' },
];

const merchantPath = (merchantIdentifier: string, rest: string) => `/merchants/${encodeURIComponent(merchantIdentifier)}/${rest}`;

/** Webhook deliveries, a merchant's signing secret and its endpoint's health (/ops/v1/webhooks, /ops/v1/merchants/{id}/webhook-*). */
export function webhookCommands(program: Command, ctx: CliContext): void {
  const webhooks = program.command('webhooks').description("webhook deliveries, merchants' signing secrets and endpoints");

  webhooks
    .command('list')
    .description(
      'List deliveries, newest first, each with every attempt (time, HTTP status, first bytes of the answer, error). JSON by default; --table for reading.',
    )
    .option('--merchant <merchantIdentifier>', "only this merchant's")
    .option('--state <state>', 'only pending, delivered, failed or superseded ones')
    .option('--limit <n>', 'at most this many (1-1000)', '100')
    .option('--table', 'a table for a person instead of JSON')
    .action(async (o: { merchant?: string; state?: string; limit: string; table?: boolean }, command: Command) => {
      const query = validated(
        command,
        listWebhooksQuerySchema,
        { merchantIdentifier: o.merchant, state: o.state, limit: o.limit },
        FLAG_OF,
      );
      const found = await ctx.client().call<Delivery[]>('GET', '/webhooks', { query });
      if (o.table) ctx.write(renderTable(DELIVERY_COLUMNS, found));
      else ctx.print(found);
    });

  webhooks
    .command('replay')
    .description('Send a delivery again: a new delivery of the same bytes, linked to the first. Prints {deliveryId, replayId}.')
    .argument('<deliveryId>')
    .action(async (deliveryId: string) =>
      ctx.print(await ctx.client().call('POST', `/webhooks/${encodeURIComponent(deliveryId)}/replay`)),
    );

  webhooks
    .command('replay-failed')
    .description('Send again every failed delivery created since a time. Prints {replayed: [{deliveryId, replayId}]}.')
    .option('--since <time>', 'ISO 8601 instant with its offset, such as 2026-01-31T00:00:00Z (required)')
    .option('--merchant <merchantIdentifier>', "only this merchant's")
    .action(async (o: { since?: string; merchant?: string }, command: Command) => {
      const body = validated(command, replayFailedSchema, { since: o.since, merchantIdentifier: o.merchant }, FLAG_OF);
      ctx.print(await ctx.client().call('POST', '/webhooks/replay', { json: body }));
    });

  merchantCommands(webhooks, ctx);
}

/** webhooks secret|endpoint: a merchant's signing secrets and its endpoint's health. */
function merchantCommands(webhooks: Command, ctx: CliContext): void {
  const secret = webhooks.command('secret').description("a merchant's Standard Webhooks signing secrets");
  merchantCall(
    ctx,
    secret.command('show'),
    'Print the signing secrets in use, newest first: {merchantIdentifier, secrets: [{secret, createdAt, retiresAt}]}.',
    'GET',
    'webhook-signing-secret',
  );
  secret
    .command('rotate')
    .description('Make a new signing secret; the replaced one still signs calls beside it for the overlap. Prints the secrets.')
    .argument('<merchantIdentifier>')
    .option(
      '--overlap <wait>',
      "how long the old secret keeps signing, such as 24h, 90m or 0 (default: the gateway's WEBHOOK_SECRET_ROTATION_OVERLAP)",
      waitSecondsArg,
    )
    .action(async (merchantIdentifier: string, o: { overlap?: number }, command: Command) => {
      const body = validated(
        command,
        rotateSigningSecretSchema,
        o.overlap === undefined ? {} : { overlapSeconds: o.overlap },
        FLAG_OF,
      );
      ctx.print(
        await ctx.client().call('POST', merchantPath(merchantIdentifier, 'webhook-signing-secret/rotate'), { json: body }),
      );
    });

  const endpoint = webhooks.command('endpoint').description("a merchant's webhook endpoint health");
  merchantCall(
    ctx,
    endpoint.command('show'),
    "Print the endpoint's health: enabled or disabled (since when, why), failing since, last success and failure.",
    'GET',
    'webhook-endpoint',
  );
  merchantCall(
    ctx,
    endpoint.command('enable'),
    'Call a disabled endpoint again from now on (its failures are forgotten); failed deliveries are sent again with webhooks replay or replay-failed.',
    'POST',
    'webhook-endpoint/enable',
  );
}

/** A command whose one argument is the merchant and whose answer is printed as it is. */
function merchantCall(ctx: CliContext, command: Command, description: string, method: 'GET' | 'POST', rest: string): void {
  command
    .description(description)
    .argument('<merchantIdentifier>')
    .action(async (merchantIdentifier: string) =>
      ctx.print(await ctx.client().call(method, merchantPath(merchantIdentifier, rest))),
    );
}
