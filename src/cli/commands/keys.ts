import type { Command } from 'commander';
import { createApiKeySchema, revokePreviousSecretKeySchema, rotateSecretKeySchema } from '../../api/schemas/keys';
import type { CliContext } from '../context';
import { validated, waitSecondsArg } from '../validate';

const path = (merchantIdentifier: string, rest: string) => `/merchants/${encodeURIComponent(merchantIdentifier)}/${rest}`;

/** A merchant's keys (/ops/v1/merchants/{id}/api-keys, secret-key, encryption-keys): the dashboard's Developers page. */
export function keyCommands(program: Command, ctx: CliContext): void {
  const keys = program.command('keys').description("a merchant's API keys, secret key and RSA encryption keys");

  keys
    .command('list')
    .description("List the merchant's API keys (label, created, last used, revoked; never the key itself).")
    .argument('<merchantIdentifier>')
    .action(async (m: string) => ctx.print(await ctx.client().call('GET', path(m, 'api-keys'))));
  keys
    .command('create')
    .description('Create an API key and print it (shown once).')
    .argument('<merchantIdentifier>')
    .option('--label <label>', 'what the key is for (required)')
    .action(async (m: string, o: { label?: string }, command: Command) => {
      const body = validated(command, createApiKeySchema, o, { label: '--label' });
      ctx.print(await ctx.client().call('POST', path(m, 'api-keys'), { json: body }));
    });
  keys
    .command('revoke')
    .description('Revoke an API key: it is refused from now on.')
    .argument('<merchantIdentifier>')
    .argument('<keyId>')
    .action(async (m: string, keyId: string) =>
      ctx.print(await ctx.client().call('POST', path(m, `api-keys/${encodeURIComponent(keyId)}/revoke`))),
    );
  keys
    .command('rotate-secret')
    .description('Make a new secret key (shown once); the old one stays valid for the overlap so a deployment can roll.')
    .argument('<merchantIdentifier>')
    .option(
      '--overlap <wait>',
      "how long the old key stays valid, such as 24h (default: the gateway's SECRET_KEY_ROTATION_OVERLAP)",
      waitSecondsArg,
    )
    .action(async (m: string, o: { overlap?: number }, command: Command) => {
      const body = validated(command, rotateSecretKeySchema, o.overlap === undefined ? {} : { overlapSeconds: o.overlap }, {
        overlapSeconds: '--overlap',
      });
      ctx.print(await ctx.client().call('POST', path(m, 'secret-key/rotate'), { json: body }));
    });
  keys
    .command('revoke-previous-secret')
    .description(
      "Refuse the previous secret key now instead of at the end of its overlap; --accepted-until names it (the rotation's previousKeyAcceptedUntil), so a newer rotation's previous key is never revoked by mistake.",
    )
    .argument('<merchantIdentifier>')
    .option('--accepted-until <instant>', "the rotation's previousKeyAcceptedUntil, such as 2026-11-27T10:00:00.000Z (required)")
    .action(async (m: string, o: { acceptedUntil?: string }, command: Command) => {
      const body = validated(
        command,
        revokePreviousSecretKeySchema,
        { previousKeyAcceptedUntil: o.acceptedUntil },
        { previousKeyAcceptedUntil: '--accepted-until' },
      );
      ctx.print(await ctx.client().call('POST', path(m, 'secret-key/revoke-previous'), { json: body }));
    });
  keys
    .command('list-rsa')
    .description("List the merchant's RSA encryption keys (encryptionKeyId, public key, created, retired).")
    .argument('<merchantIdentifier>')
    .action(async (m: string) => ctx.print(await ctx.client().call('GET', path(m, 'encryption-keys'))));
  keys
    .command('rotate-rsa')
    .description('Make a new RSA encryption key (a new encryptionKeyId); the old one still decrypts until retired.')
    .argument('<merchantIdentifier>')
    .action(async (m: string) => ctx.print(await ctx.client().call('POST', path(m, 'encryption-keys/rotate'))));
  keys
    .command('retire-rsa')
    .description('Retire an RSA encryption key that is not the newest: payerVpa encrypted with it is refused from now on.')
    .argument('<merchantIdentifier>')
    .argument('<encryptionKeyId>')
    .action(async (m: string, keyId: string) =>
      ctx.print(await ctx.client().call('POST', path(m, `encryption-keys/${encodeURIComponent(keyId)}/retire`))),
    );
}
