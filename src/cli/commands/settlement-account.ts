import type { Command } from 'commander';
import {
  confirmEarlySchema,
  confirmProposalSchema,
  masterLinkSchema,
  settlementAccountSchema,
} from '../../api/schemas/settlement-merchant';
import type { CliContext } from '../context';
import { validated } from '../validate';

const path = (merchantIdentifier: string, rest: string) => `/merchants/${encodeURIComponent(merchantIdentifier)}/${rest}`;

/** /ops/v1/merchants/{id}/settlement-account and /master: where a merchant is paid, and split payments' sub-merchants. */
export function settlementAccountCommands(program: Command, ctx: CliContext): void {
  const account = program
    .command('settlement-account')
    .description("a merchant's settlement bank account (where its settlements are paid)");
  account
    .command('set')
    .description(
      'Propose a new settlement bank account (sealed at rest, printed masked): it applies once a second operator runs `confirm`.',
    )
    .argument('<merchantIdentifier>')
    .option('--ifsc <ifsc>', 'the branch IFSC: 4 capital letters, 0, 6 capital letters or digits (required)')
    .option('--account-number <digits>', '9 to 18 digits (required)')
    .option('--holder-name <name>', 'the account holder as the bank knows it (required)')
    .action(async (m: string, o: { ifsc?: string; accountNumber?: string; holderName?: string }, command: Command) => {
      const body = validated(command, settlementAccountSchema, o, {
        ifsc: '--ifsc',
        accountNumber: '--account-number',
        holderName: '--holder-name',
      });
      ctx.print(await ctx.client().call('PUT', path(m, 'settlement-account'), { json: body }));
    });
  account
    .command('confirm')
    .description(
      "Confirm another operator's proposed account, named as `show` prints it (a different pending change is refused): it becomes the account (a replaced one cools first).",
    )
    .argument('<merchantIdentifier>')
    .option('--proposed-at <iso>', 'the pendingChange.proposedAt that `show` prints (required)')
    .option('--account-last4 <digits>', 'the pendingChange.accountLast4 that `show` prints (required)')
    .action(async (m: string, o: { proposedAt?: string; accountLast4?: string }, command: Command) => {
      const body = validated(command, confirmProposalSchema, o, {
        proposedAt: '--proposed-at',
        accountLast4: '--account-last4',
      });
      ctx.print(await ctx.client().call('POST', path(m, 'settlement-account/confirm'), { json: body }));
    });
  account
    .command('confirm-early')
    .description("End a changed account's cooling after checking it with the merchant: its held settlements are paid.")
    .argument('<merchantIdentifier>')
    .option('--account-last4 <digits>', 'the last four digits of the account checked (required)')
    .action(async (m: string, o: { accountLast4?: string }, command: Command) => {
      const body = validated(command, confirmEarlySchema, o, { accountLast4: '--account-last4' });
      ctx.print(await ctx.client().call('POST', path(m, 'settlement-account/confirm-early'), { json: body }));
    });
  account
    .command('show')
    .description('Print the settlement bank account and any proposed change, masked (null when none).')
    .argument('<merchantIdentifier>')
    .action(async (m: string) => ctx.print(await ctx.client().call('GET', path(m, 'settlement-account'))));

  program
    .command('link-master')
    .description(
      "Link a sub-merchant to its master merchant, whose split payments (/api/v1/splitTxnByAmount) may then give it shares; --master '' unlinks it.",
    )
    .argument('<merchantIdentifier>', 'the sub-merchant')
    .option('--master <merchantIdentifier>', 'the master merchant (required; "" unlinks)')
    .option('--custom-identifier <name>', "the master's own name for it (its splits' isCustomIdentifier true)")
    .action(async (m: string, o: { master?: string; customIdentifier?: string }, command: Command) => {
      const body = validated(
        command,
        masterLinkSchema,
        {
          ...(o.master === undefined ? {} : { masterMerchantIdentifier: o.master === '' ? null : o.master }),
          ...(o.customIdentifier === undefined ? {} : { customIdentifier: o.customIdentifier }),
        },
        { masterMerchantIdentifier: '--master', customIdentifier: '--custom-identifier' },
      );
      ctx.print(await ctx.client().call('PUT', path(m, 'master'), { json: body }));
    });
}
