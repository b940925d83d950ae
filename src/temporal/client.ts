import { Client, Connection, type TLSConfig } from '@temporalio/client';
import { InternalConnectionOptionsSymbol } from '@temporalio/client/lib/connection';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { quietCallContext } from './call-context';
import { gatewayDataConverter } from './payload-codec';
import { connectingTo } from './tls';

/**
 * A client of the Temporal frontend, over mTLS when `tls` is given (see temporalTls). With `timeSkipping`, the connection also speaks the test
 * server's TestService (its clock and time skipping); @temporalio/testing opens it the same way.
 */
export async function connectTemporalClient(
  address: string,
  namespace: string,
  o: {
    timeSkipping?: boolean;
    masterKey: string;
    previousMasterKeys?: readonly string[];
    /** Until when unencrypted payloads are still read (PAYLOAD_CODEC_PLAINTEXT_UNTIL); never when unset. */
    plaintextUntil?: Date;
    tls?: TLSConfig;
    /** Tracing on (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT): workflows started here continue the caller's trace. */
    traced?: boolean;
  },
): Promise<Client> {
  const connection = await connectingTo(address, o.tls, () =>
    Connection.connect({
      address,
      ...(o.tls ? { tls: o.tls } : {}),
      ...(o.timeSkipping ? { [InternalConnectionOptionsSymbol]: { supportsTestService: true } } : {}),
    }),
  );
  // Connecting set a deadline, which left the client's call context on for every promise: off again.
  quietCallContext(connection);
  // Payer data never reaches the server in clear: every payload goes through the codec.
  return new Client({
    connection,
    namespace,
    dataConverter: gatewayDataConverter(o.masterKey, o.previousMasterKeys, o.plaintextUntil),
    // A workflow started in a traced request continues its trace; off, nothing is added to headers.
    ...(o.traced ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
  });
}

/** The test server's TestService of a client opened with `timeSkipping` (undefined otherwise). */
export const testServiceOf = (client: Client) => (client.connection as Connection).testService;
