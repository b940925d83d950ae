import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { codecPayloadsSchema } from '../../api/schemas/codec';
import type { CliContext } from '../context';
import { usageError, validated } from '../validate';

/** POST /ops/v1/codec/encode and /decode: Temporal's codec-server protocol, for reading a payload by hand. */
export function codecCommands(program: Command, ctx: CliContext): void {
  const codec = program
    .command('codec')
    .description("the gateway's Temporal payload codec (AES-256-GCM under a key from MASTER_KEY)");
  for (const direction of ['encode', 'decode'] as const) {
    codec
      .command(direction)
      .description(
        `${direction === 'decode' ? 'Decrypt' : 'Encrypt'} Temporal payloads: the file holds {"payloads": [{"metadata": {...}, "data": "<base64>"}]} ` +
          'as Temporal UI and the temporal CLI send them; prints the answer in the same shape.',
      )
      .argument('<file>', 'the JSON file, or - for standard input')
      .action(async (file: string, _o: unknown, command: Command) => {
        let body: unknown;
        try {
          body = JSON.parse(file === '-' ? ctx.stdin() : readFileSync(file, 'utf8'));
        } catch (e) {
          usageError(command, `cannot read ${file === '-' ? 'standard input' : file} as JSON: ${(e as Error).message}`);
        }
        const payloads = validated(command, codecPayloadsSchema, body, {});
        ctx.print(await ctx.client().callRaw('POST', `/codec/${direction}`, { json: payloads }));
      });
  }
}
