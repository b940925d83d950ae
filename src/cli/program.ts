import { Command, type OutputConfiguration } from 'commander';
import { chargebackCommands } from './commands/chargebacks';
import { settlementCommands } from './commands/settlements';
import { auditCommands } from './commands/audit';
import { codecCommands } from './commands/codec';
import { keyCommands } from './commands/keys';
import { merchantCommands } from './commands/merchants';
import { operatorTokenCommands } from './commands/operator-tokens';
import { reconcileCommands } from './commands/reconcile';
import { settlementAccountCommands } from './commands/settlement-account';
import { webhookCommands } from './commands/webhooks';
import type { CliContext } from './context';

/** Help is laid out at this width everywhere, so docs/operators/cli.md is the same on any terminal. */
const HELP_WIDTH = 100;

/**
 * The operator CLI: one command per operation of the gateway's operator API (/ops/v1), which it
 * calls over HTTP with the operator token; it opens no store and no Temporal connection.
 */
export function createProgram(ctx: CliContext, output: OutputConfiguration = {}): Command {
  const program = new Command('cli')
    .description(
      'Operate a running gateway through its operator API (/ops/v1) with an operator token. The gateway is GATEWAY_URL (its operator listener) with OPS_TOKEN (a token of the scopes the command needs), or the one `npm start` runs (it writes .data/gateway.json; DATA_DIR moves it). ' +
        'Every command prints one JSON value on stdout (diagnostics on stderr). Exit status: 0 done, 1 the gateway refused or could not be reached (the error code and text on stderr), 2 a usage error (nothing was sent).',
    )
    .usage('<command> [options]')
    .configureHelp({ helpWidth: HELP_WIDTH, sortSubcommands: false })
    // Before the commands are added: each takes its parent's output (commander's usage errors and help).
    .configureOutput(output)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  merchantCommands(program, ctx);
  keyCommands(program, ctx);
  reconcileCommands(program, ctx);
  chargebackCommands(program, ctx);
  settlementCommands(program, ctx);
  auditCommands(program, ctx);
  webhookCommands(program, ctx);
  codecCommands(program, ctx);
  settlementAccountCommands(program, ctx);
  operatorTokenCommands(program, ctx);
  return program;
}

/** Every command, depth first, as `cli a b` names it. */
export function allCommands(program: Command): Command[] {
  return [program, ...program.commands.flatMap(allCommands)];
}

export const commandPath = (command: Command): string =>
  command.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name();
