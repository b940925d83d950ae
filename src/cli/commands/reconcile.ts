import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { CliContext } from '../context';
import { CliFailure } from '../failures';
import { usageError, wholeNumberArg } from '../validate';

const POLL_MS = 250;

/** GET /ops/v1/reconciliations/{id}: printed as answered; `state` says whether it is finished. */
interface ReconciliationReport {
  reconciliationId: string;
  state: 'running' | 'done';
}
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** POST /ops/v1/reconciliations (text/csv) and GET /ops/v1/reconciliations/{reconciliationId}. */
export function reconcileCommands(program: Command, ctx: CliContext): void {
  const show = (id: string) => ctx.client().call<ReconciliationReport>('GET', `/reconciliations/${encodeURIComponent(id)}`);

  program
    .command('reconcile')
    .description(
      "Apply a bank's reconciliation file (CSV with the header txnId,bankRefNum,status,amount; status SUCCESS or FAILED, amount in paise), " +
        'wait until it is applied and print the report: {reconciliationId, state, rows, applied, unchanged, rejected: [{line, reason}]}.',
    )
    .argument('<file>', 'the CSV file (UTF-8)')
    .option('--no-wait', 'print {reconciliationId} as soon as the gateway accepted the file')
    .option('--timeout <seconds>', 'how long to wait for the report', wholeNumberArg, 600)
    .action(async (file: string, o: { wait: boolean; timeout: number }, command: Command) => {
      let csv: string;
      try {
        csv = strictUtf8.decode(readFileSync(file));
      } catch (e) {
        usageError(command, `cannot read ${file}: ${(e as Error).message}`);
      }
      const { reconciliationId } = await ctx.client().call<{ reconciliationId: string }>('POST', '/reconciliations', { csv });
      if (!o.wait) return ctx.print({ reconciliationId });
      ctx.log(`reconciliation ${reconciliationId} started; waiting for it to finish`);
      const deadline = Date.now() + o.timeout * 1000;
      for (;;) {
        const report = await show(reconciliationId);
        if (report.state === 'done') return ctx.print(report);
        if (Date.now() > deadline)
          throw new CliFailure(
            `reconciliation ${reconciliationId} still running after ${o.timeout} s; read its report later with: cli reconciliation show ${reconciliationId}`,
          );
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    });

  program
    .command('reconciliation')
    .description('read reconciliation reports')
    .command('show')
    .description('Print the report of a reconciliation file (state running or done).')
    .argument('<reconciliationId>')
    .action(async (id: string) => ctx.print(await show(id)));
}
