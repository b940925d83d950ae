import type { MongoClient } from 'mongodb';

/**
 * How long a polling heartbeat of the store's client (a `hello` on its monitor's own connection)
 * may stay unanswered before the monitor is taken for stuck. A store answers one in milliseconds.
 */
export const STUCK_HEARTBEAT_MS = 5_000;

/** Added to an awaited (streaming) heartbeat's own bound, which the server may hold for heartbeatFrequencyMS. */
const AWAITED_MARGIN_MS = 5_000;

/** The least time between two reconnects while no server was seen known in between. */
const REPEAT_AFTER_MS = 5 * 60_000;

/**
 * Watches the client's server monitors and reconnects the client when one is stuck. The driver
 * (mongodb 7.9) can leave a monitor waiting for ever: when every connection to the store is reset
 * at once (a store restart, a network cut) with operations in flight, the heartbeat the pool's
 * reset asks for may write to the monitor's socket after it was destroyed and before its close
 * was handled, and then waits for a `drain` that never comes. The server then stays Unknown and
 * every operation fails its server selection ("connection N closed") until the process restarts.
 * A heartbeat unanswered past its bound while its server is Unknown is that case: closing the
 * client ends the monitor, and the next operation connects the client again (a fresh monitor and
 * pool). Closing also cuts an operation still running on a data connection; like any network
 * error, its activity retries it (which is why every store write of an activity is keyed by an id).
 * A store that stays out of reach (a network cut that drops packets also outlives the bound) is
 * not reconnected again and again: after a reconnect the next one waits until a server was seen
 * known again, or REPEAT_AFTER_MS.
 */
export function watchStoreMonitors(
  client: MongoClient,
  o: { stuckAfterMs?: number; checkEveryMs?: number; repeatAfterMs?: number; onStuck?: (address: string) => void } = {},
): { stop(): void } {
  const pollBound = o.stuckAfterMs ?? STUCK_HEARTBEAT_MS;
  const awaitedBound = client.options.heartbeatFrequencyMS + client.options.connectTimeoutMS + AWAITED_MARGIN_MS;
  const outstanding = new Map<string, { at: number; bound: number }>();
  const unknown = new Set<string>();
  let reconnecting = false;
  let stopped = false;
  /** When the last reconnect began, until a server is seen known again. */
  let lastReconnectAt: number | undefined;
  const described = (e: { address: string; newDescription: { type: string } }) => {
    if (e.newDescription.type === 'Unknown') unknown.add(e.address);
    else {
      unknown.delete(e.address);
      lastReconnectAt = undefined;
    }
  };
  const started = (e: { connectionId: string; awaited: boolean }) =>
    outstanding.set(e.connectionId, { at: Date.now(), bound: e.awaited ? awaitedBound : pollBound });
  const ended = (e: { connectionId: string }) => outstanding.delete(e.connectionId);
  client.on('serverHeartbeatStarted', started);
  client.on('serverHeartbeatSucceeded', ended);
  client.on('serverHeartbeatFailed', ended);
  client.on('serverDescriptionChanged', described);
  // A client closed by its owner stays closed: the watchdog ends with it.
  const closed = () => {
    if (!reconnecting) stop();
  };
  client.on('topologyClosed', closed);

  const check = () => {
    if (reconnecting) return;
    if (lastReconnectAt !== undefined && Date.now() - lastReconnectAt < (o.repeatAfterMs ?? REPEAT_AFTER_MS)) return;
    const stuck = [...outstanding].find(([address, h]) => unknown.has(address) && Date.now() - h.at > h.bound);
    if (!stuck) return;
    reconnecting = true;
    lastReconnectAt = Date.now();
    outstanding.clear();
    unknown.clear();
    o.onStuck?.(stuck[0]);
    // Operations in flight on the closed client fail (activities retry them); the next ones reconnect.
    void client
      .close()
      // An owner's close while this one ran keeps the client closed.
      .then(() => (stopped ? undefined : client.connect()))
      .catch(() => undefined) // the next operation connects the client again
      .finally(() => {
        reconnecting = false;
      });
  };
  const timer = setInterval(check, o.checkEveryMs ?? 1_000).unref();
  function stop() {
    stopped = true;
    clearInterval(timer);
    client.off('serverHeartbeatStarted', started);
    client.off('serverHeartbeatSucceeded', ended);
    client.off('serverHeartbeatFailed', ended);
    client.off('serverDescriptionChanged', described);
    client.off('topologyClosed', closed);
  }
  return { stop };
}
