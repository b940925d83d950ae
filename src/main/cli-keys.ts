/**
 * CLI commands on a merchant's keys (dispatched from cli.ts), the same use cases as the ops API
 * and the dashboard's Developers page:
 *
 *   npm run -s cli -- keys list <merchantIdentifier>                     (API keys: labels, use, revocation)
 *   npm run -s cli -- keys create <merchantIdentifier> --label <label>   (a new API key, shown once)
 *   npm run -s cli -- keys revoke <merchantIdentifier> <keyId>
 *   npm run -s cli -- keys rotate-secret <merchantIdentifier> [--overlap <wait, e.g. 24h>]
 *   npm run -s cli -- keys rotate-rsa <merchantIdentifier>               (a new encryptionKeyId)
 *   npm run -s cli -- keys retire-rsa <merchantIdentifier> <encryptionKeyId>
 */
import { parseArgs } from 'node:util';
import { createApiKeySchema } from '../api/schemas/keys';
import type { Config } from '../config';
import { parseDurationList } from '../domain/durations';
import { MerchantRepository } from '../store/merchant-repository';
import type { Store } from '../store/mongo';
import { apiKeyView, createApiKey, retireEncryptionKey, rotateEncryptionKey, rotateSecretKey } from '../usecases/merchant-keys';

export const KEY_USAGE = [
  '       cli keys list <merchantIdentifier>',
  '       cli keys create <merchantIdentifier> --label <label>',
  '       cli keys revoke <merchantIdentifier> <keyId>',
  '       cli keys rotate-secret <merchantIdentifier> [--overlap <wait such as 24h>]',
  '       cli keys rotate-rsa <merchantIdentifier>',
  '       cli keys retire-rsa <merchantIdentifier> <encryptionKeyId>',
];

type Run = (c: { store: Store; config: Config }) => Promise<unknown>;

export function keyCommands(usage: (message: string) => Error): Record<string, (args: string[]) => Promise<Run>> {
  /** The positionals the command takes and its flags; anything else is a usage error. */
  const parsed = (args: string[], command: string, positionals: number, flags: string[] = []) => {
    let r;
    try {
      r = parseArgs({ args, options: { label: { type: 'string' }, overlap: { type: 'string' } }, allowPositionals: true });
    } catch (e) {
      throw usage((e as Error).message);
    }
    const extra = Object.keys(r.values).filter((f) => !flags.includes(f));
    if (r.positionals.length !== positionals || extra.length)
      throw usage(
        `${command} takes ${positionals === 1 ? 'a merchantIdentifier' : 'a merchantIdentifier and a key id'}${flags.map((f) => ` --${f}`).join('')}`,
      );
    return { values: r.values, positionals: r.positionals as [string, string?] };
  };
  const repo = (store: Store, config: Config) => new MerchantRepository(store.db, config.MASTER_KEY);
  const found = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(what);
    return value;
  };

  return {
    async 'keys list'(args) {
      const [mid] = parsed(args, 'keys list', 1).positionals;
      return async ({ store, config }) => ({
        apiKeys: found(await repo(store, config).listApiKeys(mid), `no merchant ${mid}`).map(apiKeyView),
      });
    },
    async 'keys create'(args) {
      const { values, positionals } = parsed(args, 'keys create', 1, ['label']);
      const label = createApiKeySchema.safeParse({ label: values.label });
      if (!label.success) throw usage(`--label: ${label.error.issues[0]!.message}`);
      return async ({ store, config }) =>
        found(
          await createApiKey(repo(store, config), positionals[0], label.data.label, new Date()),
          `no merchant ${positionals[0]}`,
        );
    },
    async 'keys revoke'(args) {
      const [mid, keyId] = parsed(args, 'keys revoke', 2).positionals;
      return async ({ store, config }) => {
        const merchants = repo(store, config);
        if (!(await merchants.revokeApiKey(mid, keyId!, new Date()))) throw new Error(`merchant ${mid} has no key ${keyId}`);
        return apiKeyView((await merchants.listApiKeys(mid))!.find((k) => k.keyId === keyId)!);
      };
    },
    async 'keys rotate-secret'(args) {
      const { values, positionals } = parsed(args, 'keys rotate-secret', 1, ['overlap']);
      if (values.overlap !== undefined && !/^\s*\d+(ms|s|m|h)?\s*$/.test(values.overlap))
        throw usage('--overlap: a wait such as 24h');
      return async ({ store, config }) => {
        const overlapMs = parseDurationList(values.overlap ?? config.SECRET_KEY_ROTATION_OVERLAP)[0]!;
        return found(
          await rotateSecretKey(repo(store, config), positionals[0], overlapMs, new Date()),
          `no merchant ${positionals[0]}`,
        );
      };
    },
    async 'keys rotate-rsa'(args) {
      const [mid] = parsed(args, 'keys rotate-rsa', 1).positionals;
      return async ({ store, config }) =>
        found(await rotateEncryptionKey(repo(store, config), mid, new Date()), `no merchant ${mid}`);
    },
    async 'keys retire-rsa'(args) {
      const [mid, keyId] = parsed(args, 'keys retire-rsa', 2).positionals;
      return async ({ store, config }) => {
        const result = await retireEncryptionKey(repo(store, config), mid, keyId!, new Date());
        if (result === 'unknown') throw new Error(`merchant ${mid} has no encryption key ${keyId}`);
        if (result === 'newest') throw new Error('the newest encryption key cannot be retired: rotate first');
        return result;
      };
    },
  };
}
