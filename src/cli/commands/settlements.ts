import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { feePlanSchema, settlementRunSchema } from '../../api/schemas/settlements';
import type { CliContext } from '../context';
import { usageError, validated } from '../validate';

const merchantPath = (merchant: string) => `/merchants/${encodeURIComponent(merchant)}`;

/** The operator's settlement endpoints (/ops/v1/merchants/:id/fee-plan, .../settlements/hold|release, /ops/v1/settlements/...), one command each. */
export function settlementCommands(program: Command, ctx: CliContext): void {
  feePlanCommands(program, ctx);
  settlementRunCommands(program, ctx);
}

/** fee-plan show|set: a merchant's settlement fee plan. */
function feePlanCommands(program: Command, ctx: CliContext): void {
  const feePlan = program.command('fee-plan').description("a merchant's settlement fee plan");
  feePlan
    .command('show')
    .description("Print the merchant's fee plan: {merchantIdentifier, source (merchant or default), feePlan}.")
    .argument('<merchantIdentifier>', 'the merchant')
    .action(async (merchant: string) => {
      ctx.print(await ctx.client().call('GET', `${merchantPath(merchant)}/fee-plan`));
    });
  feePlan
    .command('set')
    .description(
      "Set the merchant's own fee plan from a JSON file (docs/operators/settlements.md): it applies to what its next settlements claim. Prints the plan as stored.",
    )
    .argument('<merchantIdentifier>', 'the merchant')
    .argument('<file>', 'the plan as JSON, or - for standard input')
    .action(async (merchant: string, file: string, _o: unknown, command: Command) => {
      let body: unknown;
      try {
        body = JSON.parse(file === '-' ? ctx.stdin() : readFileSync(file, 'utf8'));
      } catch (e) {
        usageError(command, `cannot read ${file === '-' ? 'standard input' : file} as JSON: ${(e as Error).message}`);
      }
      const plan = validated(command, feePlanSchema, body, {});
      ctx.print(await ctx.client().call('PUT', `${merchantPath(merchant)}/fee-plan`, { json: plan }));
    });
}

/** settlements hold|release|run|list|...: a merchant's settlements, and what needs attention. */
function settlementRunCommands(program: Command, ctx: CliContext): void {
  const settlements = program
    .command('settlements')
    .description("merchants' settlements: hold, release, run a date, list, what needs attention");
  settlements
    .command('hold')
    .description(
      "Hold the merchant's settlements: those that start from now on wait in state held. Prints {merchantIdentifier, held}.",
    )
    .argument('<merchantIdentifier>', 'the merchant')
    .action(async (merchant: string) => {
      ctx.print(await ctx.client().call('POST', `${merchantPath(merchant)}/settlements/hold`));
    });
  settlements
    .command('release')
    .description(
      "Release the merchant's settlements: the held ones go on (paid, or carried forward). Prints {merchantIdentifier, held, released}.",
    )
    .argument('<merchantIdentifier>', 'the merchant')
    .action(async (merchant: string) => {
      ctx.print(await ctx.client().call('POST', `${merchantPath(merchant)}/settlements/release`));
    });
  settlements
    .command('run')
    .description(
      "Run the merchant's settlement of a date (docs/operators/settlements.md): started, or already running, or already completed (with its state). A date whose workflow failed or was terminated runs again; a date whose capture window has not closed is refused (exit status 1, code 2064). Prints {merchantIdentifier, settlementId, settlementDate, outcome, state}.",
    )
    .argument('<merchantIdentifier>', 'the merchant')
    .requiredOption('--date <yyyy-MM-dd>', 'the settlement (UTR) date, IST')
    .action(async (merchant: string, o: { date: string }, command: Command) => {
      const body = validated(command, settlementRunSchema, { date: o.date }, { date: '--date' });
      ctx.print(await ctx.client().call('POST', `${merchantPath(merchant)}/settlements/run`, { json: body }));
    });
  settlements
    .command('list')
    .description(
      "Print the merchant's latest settlements, newest date first, each as settlements show prints one: {merchantIdentifier, settlements}.",
    )
    .argument('<merchantIdentifier>', 'the merchant')
    .option('--limit <n>', 'how many (1 to 100; default 20)')
    .action(async (merchant: string, o: { limit?: string }) => {
      ctx.print(await ctx.client().call('GET', `${merchantPath(merchant)}/settlements`, { query: { limit: o.limit } }));
    });
  settlements
    .command('attention')
    .description(
      'Print what needs attention: settlements not final in time or whose workflow failed or was terminated (unfinished, each with its reason), refused payouts not yet carried into a later settlement, held settlements, merchants the daily run could not start, bank files not checked, recent bank-file differences.',
    )
    .action(async () => {
      ctx.print(await ctx.client().call('GET', '/settlements/needs-attention'));
    });
  settlements
    .command('differences')
    .description("Print the differences found between the bank's settlement files and the gateway's settlements, newest first.")
    .option('--date <yyyy-MM-dd>', 'only those of this payout date')
    .action(async (o: { date?: string }) => {
      ctx.print(await ctx.client().call('GET', `/settlements/differences${o.date ? `?date=${encodeURIComponent(o.date)}` : ''}`));
    });
  settlements
    .command('show')
    .description('Print one settlement by its id (settlement:<merchantIdentifier>:<yyyy-MM-dd>).')
    .argument('<settlementId>', 'the settlement')
    .action(async (id: string) => {
      ctx.print(await ctx.client().call('GET', `/settlements/${encodeURIComponent(id)}`));
    });
}
