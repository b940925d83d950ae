import assert from 'node:assert/strict';
import type { Connection } from '@temporalio/client';
import { withCallContext } from '../../src/temporal/call-context';
import { connectTemporalClient } from '../../src/temporal/client';
import { testTemporal } from '../support/servers';

/** Node 20's AsyncLocalStorage says whether it is enabled (its async hook on) in a plain field. */
const contextOn = (connection: Connection) => (connection.callContextStorage as unknown as { enabled: boolean }).enabled;

describe("Temporal client's call context: on only while a call with a deadline or an abort signal runs", function () {
  this.timeout(60_000);

  it('is off once connected, on during a call with an abort signal, which still aborts, and off after it', async () => {
    const { address } = await testTemporal();
    const client = await connectTemporalClient(address, 'default', { masterKey: 'a'.repeat(64) });
    const connection = client.connection as Connection;
    try {
      assert.equal(contextOn(connection), false, 'connecting leaves no async hook on every promise');
      const seenDuring: boolean[] = [];
      const started = Date.now();
      // A long poll of a task queue nobody feeds (the server holds it about a minute): the signal cuts it.
      const outcome = await withCallContext(connection, () =>
        client.withAbortSignal(AbortSignal.timeout(300), async () => {
          seenDuring.push(contextOn(connection));
          await client.workflowService.pollWorkflowTaskQueue({ namespace: 'default', taskQueue: { name: `nobody-${started}` } });
          return 'answered';
        }),
      ).catch(() => 'aborted');
      assert.deepEqual(seenDuring, [true]);
      assert.equal(outcome, 'aborted');
      assert.ok(Date.now() - started < 10_000, 'the abort signal still reached the call');
      assert.equal(contextOn(connection), false);
      // Two calls at once: the context stays on until the last one ends.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const first = withCallContext(connection, () => client.withAbortSignal(new AbortController().signal, () => held));
      const second = withCallContext(connection, () =>
        client.withAbortSignal(new AbortController().signal, async () => client.workflowService.getSystemInfo({})),
      );
      await second;
      assert.equal(contextOn(connection), true, 'still on while the first call runs');
      release();
      await first;
      assert.equal(contextOn(connection), false);
    } finally {
      await connection.close();
    }
  });
});
