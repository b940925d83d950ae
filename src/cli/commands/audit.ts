import type { Command } from 'commander';
import { auditQuerySchema } from '../../api/schemas/audit';
import type { CliContext } from '../context';
import { validated } from '../validate';

/** The audit trail (GET /ops/v1/audit), read-only. */
export function auditCommands(program: Command, ctx: CliContext): void {
  program
    .command('audit')
    .description(
      "Print the audit trail, newest first: who changed a merchant's keys, accounts, roles, webhooks or settlements, when and from where (docs/operators/audit.md). Prints {records}.",
    )
    .option('--merchant <merchantIdentifier>', "only this merchant's records")
    .option('--before <instant>', "the next page: the last printed record's at")
    .option('--limit <n>', 'at most this many (1 to 500)', '100')
    .action(async (o: { merchant?: string; before?: string; limit: string }, command: Command) => {
      const q = validated(
        command,
        auditQuerySchema,
        { merchantIdentifier: o.merchant, before: o.before, limit: o.limit },
        { merchantIdentifier: '--merchant', before: '--before', limit: '--limit' },
      );
      const params = new URLSearchParams({ limit: String(q.limit) });
      if (q.merchantIdentifier) params.set('merchantIdentifier', q.merchantIdentifier);
      if (q.before) params.set('before', q.before);
      ctx.print(await ctx.client().call('GET', `/audit?${params.toString()}`));
    });
}
