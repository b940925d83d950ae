import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import type { Config } from '../config';

type TlsSettings = Pick<Config['temporal'], 'tlsCaFile' | 'tlsCertFile' | 'tlsKeyFile' | 'tlsServerName'>;

/**
 * mTLS to the Temporal frontend from TEMPORAL_TLS_* (the configuration checks they come together),
 * for every connection: the API's and CLI's clients and the worker's NativeConnection. Undefined:
 * plaintext (development and tests). A file that cannot be read is named with its setting.
 */
export function temporalTls(c: TlsSettings): TLSConfig | undefined {
  if (!c.tlsCaFile || !c.tlsCertFile || !c.tlsKeyFile) return undefined;
  return {
    serverRootCACertificate: readSetting('TEMPORAL_TLS_CA_FILE', c.tlsCaFile),
    clientCertPair: {
      crt: readSetting('TEMPORAL_TLS_CERT_FILE', c.tlsCertFile),
      key: readSetting('TEMPORAL_TLS_KEY_FILE', c.tlsKeyFile),
    },
    ...(c.tlsServerName ? { serverNameOverride: c.tlsServerName } : {}),
  };
}

function readSetting(setting: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new Error(`${setting}: cannot read ${file}: ${(e as Error).message}`);
  }
}

/**
 * Opens a connection, turning the SDK's failure (a gRPC status, a TLS alert, a deadline) into a
 * start-up error that says where it went and which settings decide it.
 */
export async function connectingTo<T>(address: string, tls: TLSConfig | undefined, connect: () => Promise<T>): Promise<T> {
  try {
    return await connect();
  } catch (e) {
    const hint = tls
      ? 'mTLS: check that the frontend trusts the CA of TEMPORAL_TLS_CERT_FILE, and that its certificate is signed by TEMPORAL_TLS_CA_FILE for TEMPORAL_TLS_SERVER_NAME (or the address host)'
      : 'plaintext: if the frontend requires TLS, set TEMPORAL_TLS_CA_FILE, TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE';
    throw new Error(`cannot connect to Temporal at ${address} (${hint}): ${(e as Error).message}`, { cause: e });
  }
}
