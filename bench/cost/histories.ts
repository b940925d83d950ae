import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporalTlsDirs } from '../../src/devstack/production/temporal';
import type { StackState } from '../../src/devstack/production/stack';
import { temporalTls } from '../../src/temporal/tls';
import { paymentWorkflowId } from '../../src/temporal/workflow-ids';
import { historyWork, meanWork, type TemporalWork } from '../support/work';

/**
 * What the sampled payments' workflows asked of Temporal, read from their histories through the
 * stack's frontend with the gateway's client certificate (mTLS, as the gateway connects).
 */
export async function sampledPaymentWork(
  state: StackState,
  merchantIdentifier: string,
  orderIds: string[],
): Promise<TemporalWork & { sampled: number }> {
  const dir = temporalTlsDirs(path.join(state.dataDir, 'temporal-tls')).gateway;
  const tls = temporalTls({
    tlsCaFile: path.join(dir, 'ca.pem'),
    tlsCertFile: path.join(dir, 'client.pem'),
    tlsKeyFile: path.join(dir, 'client.key'),
    tlsServerName: 'temporal',
  });
  const connection = await Connection.connect({ address: `127.0.0.1:${state.ports.temporal.frontend}`, tls });
  try {
    const client = new Client({ connection, namespace: 'default' });
    const works = [];
    for (const orderId of orderIds) {
      const history = await client.workflow.getHandle(paymentWorkflowId(merchantIdentifier, orderId)).fetchHistory();
      works.push(historyWork(history.events ?? []));
    }
    return { ...meanWork(works), sampled: works.length };
  } finally {
    await connection.close();
  }
}
