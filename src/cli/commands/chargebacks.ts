import type { Command } from 'commander';
import { chargebackSchema } from '../../api/schemas/chargebacks';
import type { CliContext } from '../context';
import { validated } from '../validate';

const FLAG_OF = { merchantIdentifier: '--merchant', orderId: '--order', amount: '--amount', action: 'action' };

/** POST /ops/v1/chargebacks, one command per action. */
export function chargebackCommands(program: Command, ctx: CliContext): void {
  const chargeback = program.command('chargeback').description('record a chargeback the bank raised, or its revert');
  const descriptions = {
    raise:
      'Record a chargeback on a successful order: the whole amount gives txnStatus 6 (Chargeback), less 8 (Partial Chargeback).',
    revert:
      'Record the revert of a chargeback, with the amount that was raised: 5 (Chargeback Reverted) or 7 (Partial Chargeback Reverted).',
  };
  for (const action of ['raise', 'revert'] as const) {
    chargeback
      .command(action)
      .description(`${descriptions[action]} Prints {merchantIdentifier, orderId, txnStatus, chargebackAmount}.`)
      .option('--merchant <merchantIdentifier>', 'the merchant (required)')
      .option('--order <orderId>', 'the order (required)')
      .option('--amount <paise>', 'the amount charged back, in paise (required)')
      .action(async (o: { merchant?: string; order?: string; amount?: string }, command: Command) => {
        const body = validated(
          command,
          chargebackSchema,
          {
            merchantIdentifier: o.merchant,
            orderId: o.order,
            amount: o.amount !== undefined && /^\d+$/.test(o.amount) ? Number(o.amount) : o.amount,
            action,
          },
          FLAG_OF,
        );
        ctx.print(await ctx.client().call('POST', '/chargebacks', { json: body }));
      });
  }
}
