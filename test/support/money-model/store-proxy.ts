import net from 'node:net';

/**
 * The money model's store outage: the gateway reaches the store through this loopback proxy, which
 * an outage turns off for a while (every open connection reset, new ones refused), as a store
 * restart or a network cut does. The store itself keeps its data.
 */
export interface StoreProxy {
  /** The store's URI through the proxy. */
  uri: string;
  /** Resets every connection and refuses new ones for `ms` of wall clock. */
  outage(ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function startStoreProxy(storeUri: string): Promise<StoreProxy> {
  const target = new URL(storeUri);
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return void client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const proxied = new URL(storeUri);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    uri: proxied.toString(),
    async outage(ms) {
      down = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
      await new Promise((r) => setTimeout(r, ms));
      down = false;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
