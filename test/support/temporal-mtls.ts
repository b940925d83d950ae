import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { projectRoot } from '../../src/devstack/paths';

/** PEM files of a throwaway PKI for mTLS to Temporal: the CA, the frontend's certificate, clients'. */
export interface TemporalPki {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  /** Signed by the CA: the gateway's client certificate. */
  clientCertFile: string;
  clientKeyFile: string;
  /** Signed by another CA the frontend does not trust. */
  strangerCertFile: string;
  strangerKeyFile: string;
  /** The name on the frontend's certificate (TEMPORAL_TLS_SERVER_NAME). */
  serverName: string;
}

/** The compose stack's own issuing script (the temporal-tls job), run into a directory per volume. */
const issuingScript = path.join(projectRoot, 'deploy', 'temporal-tls', 'generate.sh');

function issue(root: string, serverName: string): void {
  for (const volume of ['ca', 'server', 'gateway', 'tools']) mkdirSync(path.join(root, volume), { recursive: true });
  execFileSync('sh', [issuingScript], {
    stdio: 'pipe',
    env: { PATH: process.env.PATH, TEMPORAL_TLS_ROOT: root, TEMPORAL_TLS_SERVER_NAME: serverName },
  });
}

/**
 * Certificates as docker-compose.yml issues them (deploy/temporal-tls/generate.sh), and a second
 * PKI whose client certificate the first CA never signed.
 */
export function generateTemporalPki(serverName = 'temporal'): TemporalPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-pki-'));
  issue(path.join(dir, 'ours'), serverName);
  issue(path.join(dir, 'stranger'), serverName);
  const f = (...p: string[]) => path.join(dir, ...p);
  return {
    dir,
    caFile: f('ours', 'gateway', 'ca.pem'),
    serverCertFile: f('ours', 'server', 'server.pem'),
    serverKeyFile: f('ours', 'server', 'server.key'),
    clientCertFile: f('ours', 'gateway', 'client.pem'),
    clientKeyFile: f('ours', 'gateway', 'client.key'),
    strangerCertFile: f('stranger', 'gateway', 'client.pem'),
    strangerKeyFile: f('stranger', 'gateway', 'client.key'),
    serverName,
  };
}

/** A TLS-terminating stand-in for an mTLS Temporal frontend, in front of a plaintext one. */
export interface MtlsFrontend {
  address: string;
  /** Common names of the client certificates of the connections it let through. */
  authorizedClients: string[];
  close(): Promise<void>;
}

/**
 * On loopback: requires a client certificate signed by the PKI's CA (requestCert +
 * rejectUnauthorized), speaks h2 as gRPC does, and pipes the decrypted bytes to `target`.
 */
export async function startMtlsFrontend(pki: TemporalPki, target: string): Promise<MtlsFrontend> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const authorizedClients: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    {
      key: readFileSync(pki.serverKeyFile),
      cert: readFileSync(pki.serverCertFile),
      ca: readFileSync(pki.caFile),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client) => {
      authorizedClients.push(String(client.getPeerCertificate().subject?.CN));
      const upstream = net.connect(port, host);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    },
  );
  server.on('tlsClientError', () => undefined); // a refused client is the point of some tests
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    authorizedClients,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
