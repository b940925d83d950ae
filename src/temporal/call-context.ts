import type { Connection } from '@temporalio/client';

/**
 * Temporal's client keeps a call's deadline, abort signal and metadata in an AsyncLocalStorage of
 * its connection. On Node 20 an enabled AsyncLocalStorage runs an async hook for every promise the
 * process makes (several times the cost of an awaited promise: docs/contributors/benchmarks.md,
 * Status API), and the client enables its own for good when it connects (its first call has a
 * deadline). The gateway keeps it enabled only while a
 * call that sets such a context runs: disabled once connected, and again when the last of those
 * calls ends. A call without a context of its own reads none either way.
 */
const contextCalls = new WeakMap<Connection, number>();

/** Disables the connection's call context unless a call that set one is running. */
export function quietCallContext(connection: Connection): void {
  if ((contextCalls.get(connection) ?? 0) === 0) connection.callContextStorage.disable();
}

/** Runs a call that sets a context (`withDeadline`, `withAbortSignal`, `withMetadata`), then quiets the context again. */
export async function withCallContext<T>(connection: Connection, call: () => Promise<T>): Promise<T> {
  contextCalls.set(connection, (contextCalls.get(connection) ?? 0) + 1);
  try {
    return await call();
  } finally {
    contextCalls.set(connection, contextCalls.get(connection)! - 1);
    quietCallContext(connection);
  }
}
