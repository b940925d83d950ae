import type { Command } from 'commander';
import { createOperatorTokenSchema } from '../../api/schemas/operator-tokens';
import { OPERATOR_SCOPES } from '../../domain/operator-token';
import type { CliContext } from '../context';
import { validated } from '../validate';

const path = (name: string, action: string) => `/operator-tokens/${encodeURIComponent(name)}/${action}`;

/** Operator tokens by job (/ops/v1/operator-tokens): creating, rotating and revoking takes the `tokens` scope. */
export function operatorTokenCommands(program: Command, ctx: CliContext): void {
  const tokens = program
    .command('operator-tokens')
    .description(
      `operator tokens by job, each with its scopes (${OPERATOR_SCOPES.join(', ')}); every change is in the audit trail`,
    );
  tokens
    .command('create')
    .description('Create a token for one job and print it (shown once; the gateway keeps its hash).')
    .option('--name <name>', 'who or what holds it, as the audit trail names it (required), such as prometheus')
    .option('--scope <scopes>', `comma-separated scopes (required): ${OPERATOR_SCOPES.join(', ')}`)
    .action(async (o: { name?: string; scope?: string }, command: Command) => {
      const scopes = o.scope === undefined ? undefined : o.scope.split(',').map((s) => s.trim());
      const body = validated(command, createOperatorTokenSchema, { name: o.name, scopes }, { name: '--name', scopes: '--scope' });
      ctx.print(await ctx.client().call('POST', '/operator-tokens', { json: body }));
    });
  tokens
    .command('list')
    .description('List the tokens: name, scopes, created, rotated, revoked (never a token).')
    .action(async () => ctx.print(await ctx.client().call('GET', '/operator-tokens')));
  tokens
    .command('rotate')
    .description('Replace a token: prints the new one (shown once); the old one is refused at once.')
    .argument('<name>')
    .action(async (name: string) => ctx.print(await ctx.client().call('POST', path(name, 'rotate'))));
  tokens
    .command('revoke')
    .description('Revoke a token: refused at once, on every replica. Its name is not given again.')
    .argument('<name>')
    .action(async (name: string) => ctx.print(await ctx.client().call('POST', path(name, 'revoke'))));
}
