import { Client, Connection } from '@temporalio/client';
import { InternalConnectionOptionsSymbol } from '@temporalio/client/lib/connection';

/**
 * A client of the Temporal frontend. With `timeSkipping`, the connection also speaks the test
 * server's TestService (its clock and time skipping); @temporalio/testing opens it the same way.
 */
export async function connectTemporalClient(
  address: string,
  namespace: string,
  o: { timeSkipping?: boolean } = {},
): Promise<Client> {
  const connection = await Connection.connect({
    address,
    ...(o.timeSkipping ? { [InternalConnectionOptionsSymbol]: { supportsTestService: true } } : {}),
  });
  return new Client({ connection, namespace });
}

/** The test server's TestService of a client opened with `timeSkipping` (undefined otherwise). */
export const testServiceOf = (client: Client) => (client.connection as Connection).testService;
