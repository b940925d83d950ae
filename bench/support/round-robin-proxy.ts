/**
 * One address in front of several API replicas, as a load balancer would be: each new TCP
 * connection goes to the next replica in turn; a replica that refuses the connection (killed, not
 * yet back) is skipped for the next one. Connections already open to a replica that dies are cut,
 * as a real balancer would cut them: the client sees no answer and retries.
 */
import net from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Connections each backend took, by port. */
  connections: Map<number, number>;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backendPorts: number[], host = '127.0.0.1'): Promise<RoundRobinProxy> {
  let next = 0;
  const connections = new Map(backendPorts.map((p) => [p, 0]));
  const sockets = new Set<net.Socket>();
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };

  /** Connects to the first backend that accepts, starting with the next in turn. */
  const connectBackend = (tried = 0): Promise<net.Socket> =>
    new Promise((resolve, reject) => {
      if (tried === backendPorts.length) return reject(new Error('no backend accepts connections'));
      const port = backendPorts[next++ % backendPorts.length]!;
      const upstream = net.connect({ host, port });
      upstream.once('connect', () => {
        connections.set(port, (connections.get(port) ?? 0) + 1);
        resolve(upstream);
      });
      upstream.once('error', () => connectBackend(tried + 1).then(resolve, reject));
    });

  const server = net.createServer((client) => {
    track(client);
    client.pause();
    client.on('error', () => undefined);
    connectBackend().then(
      (upstream) => {
        track(upstream);
        upstream.removeAllListeners('error');
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
        client.once('close', () => upstream.destroy());
        client.pipe(upstream).pipe(client);
        client.resume();
      },
      () => client.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${host}:${port}`,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
