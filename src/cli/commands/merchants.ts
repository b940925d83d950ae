import type { Command } from 'commander';
import { invitationRequestSchema } from '../../api/schemas/dashboard';
import { createMerchantSchema, merchantSettingsSchema } from '../../api/schemas/ops';
import type { CliContext } from '../context';
import { booleanArg, validated } from '../validate';

const FLAG_OF = {
  name: '--name',
  webhookUrl: '--webhook-url',
  merchantIdentifier: '--merchant-identifier',
  secretKey: '--secret-key',
  webhookFormat: '--webhook-format',
  autoRefund: '--auto-refund',
  settlementWebhook: '--settlement-webhook',
  defaultReturnUrl: '--default-return-url',
  email: '--email',
  role: '--role',
};

/** An empty value removes an optional address. */
const orNull = (value: string | undefined) => (value === undefined ? undefined : value === '' ? null : value);
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** POST /ops/v1/merchants, PATCH /ops/v1/merchants/{merchantIdentifier} and its dashboard invitations. */
export function merchantCommands(program: Command, ctx: CliContext): void {
  const merchant = program.command('merchant').description('provision merchants and change their settings');

  merchant
    .command('create')
    .description(
      'Provision a merchant and print its credentials (shown once: merchantIdentifier, secretKey, apiKey, encryptionKeyId, publicKeyPem). ' +
        'A merchant moving from another Zaakpay-compatible gateway keeps its credentials: give --merchant-identifier and --secret-key.',
    )
    .option('--name <name>', 'the merchant name (required)')
    .option('--webhook-url <url>', 'where webhooks are sent (http or https)')
    .option('--merchant-identifier <id>', 'import: the identifier the merchant already uses (6-64 letters and digits)')
    .option('--secret-key <key>', 'import: the secret key the merchant already signs with (16-128 printable ASCII)')
    .action(
      async (o: { name?: string; webhookUrl?: string; merchantIdentifier?: string; secretKey?: string }, command: Command) => {
        const body = validated(command, createMerchantSchema, defined(o), FLAG_OF);
        ctx.print(await ctx.client().call('POST', '/merchants', { json: body }));
      },
    );

  merchant
    .command('update')
    .description("Change a merchant's settings and print them all.")
    .argument('<merchantIdentifier>')
    .option('--webhook-url <url>', 'where webhooks are sent; "" removes it')
    .option('--webhook-format <format>', 'body of webhook calls: form or json')
    .option('--auto-refund <bool>', 'true: refund a reconciled delayed success at once', booleanArg)
    .option('--settlement-webhook <bool>', 'true: send a settlement.processed webhook when a settlement is paid', booleanArg)
    .option(
      '--default-return-url <url>',
      'where the hosted checkout sends the payer back when the request has none; "" removes it',
    )
    .action(
      async (
        merchantIdentifier: string,
        o: {
          webhookUrl?: string;
          webhookFormat?: string;
          autoRefund?: boolean;
          settlementWebhook?: boolean;
          defaultReturnUrl?: string;
        },
        command: Command,
      ) => {
        const body = validated(
          command,
          merchantSettingsSchema,
          defined({ ...o, webhookUrl: orNull(o.webhookUrl), defaultReturnUrl: orNull(o.defaultReturnUrl) }),
          FLAG_OF,
        );
        ctx.print(await ctx.client().call('PATCH', `/merchants/${encodeURIComponent(merchantIdentifier)}`, { json: body }));
      },
    );

  merchant
    .command('invite')
    .description(
      "Invite a user to the merchant's dashboard: prints {invitationUrl, email, role, expiresAt}. No mail is sent: hand the one-time link on; it expires after the gateway's DASHBOARD_INVITATION_HOURS.",
    )
    .argument('<merchantIdentifier>')
    .option('--email <email>', 'who is invited; the user signs in with it (required)')
    .option('--role <role>', 'owner (users, keys, settings), developer (keys, webhooks, logs) or viewer (read only)', 'owner')
    .action(async (merchantIdentifier: string, o: { email?: string; role: string }, command: Command) => {
      const body = validated(command, invitationRequestSchema, defined(o), FLAG_OF);
      ctx.print(
        await ctx.client().call('POST', `/merchants/${encodeURIComponent(merchantIdentifier)}/invitations`, { json: body }),
      );
    });
}
