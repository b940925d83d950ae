import { MongoClient } from 'mongodb';
import { hashOperatorToken, type OperatorScope } from '../../domain/operator-token';
import { OperatorTokenRepository } from '../../store/operator-token-repository';
import type { StackSecrets } from './secrets';

/**
 * The narrow operator tokens the stack's own parts hold, stored (as hashes) before Caddy starts:
 * Caddy's codec site sends the codec one, and a Prometheus would scrape /metrics with the metrics
 * one. A compose deployment creates them with `cli operator-tokens create` instead (it has no
 * step between the store and Caddy); here the tokens are the stack's generated secrets.
 */
export const STACK_OPERATOR_TOKENS: { name: string; secret: 'CODEC_TOKEN' | 'METRICS_TOKEN'; scopes: OperatorScope[] }[] = [
  { name: 'temporal-ui-codec', secret: 'CODEC_TOKEN', scopes: ['codec'] },
  { name: 'prometheus', secret: 'METRICS_TOKEN', scopes: ['metrics'] },
];

export async function ensureStackOperatorTokens(storeUri: string, dbName: string, secrets: StackSecrets): Promise<void> {
  const client = await MongoClient.connect(storeUri);
  try {
    const tokens = new OperatorTokenRepository(client.db(dbName));
    // A name taken already is this data directory's own token from an earlier start (same secret).
    for (const t of STACK_OPERATOR_TOKENS)
      await tokens.create(t.name, hashOperatorToken(secrets[t.secret]), t.scopes, new Date());
  } finally {
    await client.close();
  }
}
