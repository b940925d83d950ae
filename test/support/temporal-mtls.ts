import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

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

const openssl = (dir: string, ...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** X.509 v3 certificates (rustls, behind the worker's NativeConnection, refuses v1 and CA-less chains). */
export function generateTemporalPki(serverName = 'temporal'): TemporalPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-pki-'));
  writeFileSync(path.join(dir, 'ca.ext'), 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n');
  writeFileSync(
    path.join(dir, 'server.ext'),
    `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:${serverName}\n`,
  );
  writeFileSync(
    path.join(dir, 'client.ext'),
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=clientAuth\n',
  );
  const key = (name: string) => openssl(dir, 'ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`);
  const ca = (name: string) => {
    key(name);
    openssl(dir, 'req', '-new', '-key', `${name}.key`, '-subj', `/CN=${name}`, '-out', `${name}.csr`);
    openssl(
      dir,
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-signkey',
      `${name}.key`,
      '-days',
      '2',
      '-extfile',
      'ca.ext',
      '-out',
      `${name}.pem`,
    );
  };
  const leaf = (name: string, issuer: string, ext: string) => {
    key(name);
    openssl(dir, 'req', '-new', '-key', `${name}.key`, '-subj', `/CN=${name}`, '-out', `${name}.csr`);
    openssl(
      dir,
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${issuer}.pem`,
      '-CAkey',
      `${issuer}.key`,
      '-set_serial',
      String(Date.now()),
      '-days',
      '2',
      '-extfile',
      ext,
      '-out',
      `${name}.pem`,
    );
  };
  ca('ca');
  ca('stranger-ca');
  leaf('server', 'ca', 'server.ext');
  leaf('gateway', 'ca', 'client.ext');
  leaf('stranger', 'stranger-ca', 'client.ext');
  const f = (name: string) => path.join(dir, name);
  return {
    dir,
    caFile: f('ca.pem'),
    serverCertFile: f('server.pem'),
    serverKeyFile: f('server.key'),
    clientCertFile: f('gateway.pem'),
    clientKeyFile: f('gateway.key'),
    strangerCertFile: f('stranger.pem'),
    strangerKeyFile: f('stranger.key'),
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
