import { ENDPOINT_HEALTH_FLUSH_MS } from '../../src/store/webhook-endpoint-buffer';

/**
 * Reads until `done` holds, within the bound health counts keep (workers add acknowledged attempts
 * to the store once a second, ENDPOINT_HEALTH_FLUSH_MS), with a margin for a loaded machine.
 */
export async function withinHealthBound<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5 * ENDPOINT_HEALTH_FLUSH_MS;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}
