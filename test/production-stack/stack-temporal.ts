/**
 * A client of the production stack's Temporal namespace, as the gateway connects: over mTLS with
 * the gateway's client certificate, its payloads through the codec under the stack's MASTER_KEY.
 */
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { StackSecrets } from '../../src/devstack/production/secrets';
import { gatewayEnvFile, readEnvFile } from '../../src/devstack/production/settings';
import type { StackState } from '../../src/devstack/production/stack';
import { connectTemporalClient } from '../../src/temporal/client';
import { temporalTls } from '../../src/temporal/tls';

export async function connectStackTemporal(state: StackState, secrets: StackSecrets): Promise<Client> {
  const settings = readEnvFile(gatewayEnvFile);
  const tlsDir = path.join(state.dataDir, 'temporal-tls', 'gateway');
  const tls = temporalTls({
    tlsCaFile: path.join(tlsDir, 'ca.pem'),
    tlsCertFile: path.join(tlsDir, 'client.pem'),
    tlsKeyFile: path.join(tlsDir, 'client.key'),
    tlsServerName: settings.TEMPORAL_TLS_SERVER_NAME,
  });
  return connectTemporalClient(`127.0.0.1:${state.ports.temporal.frontend}`, settings.TEMPORAL_NAMESPACE!, {
    masterKey: secrets.MASTER_KEY,
    ...(tls ? { tls } : {}),
  });
}
