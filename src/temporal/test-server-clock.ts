import type { Connection } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';

export type TestService = NonNullable<Connection['testService']>;

/**
 * The gateway's clock in time-skipping mode: the test server's time, which runs at wall-clock pace
 * while time skipping is locked and jumps when a tester skips. `now()` stays synchronous (every rule
 * reads it inline) by keeping the offset from the local clock; `sync()` re-reads the server, and the
 * API and activities call it before they run, so they never read a time from before a skip.
 */
export class TestServerClock {
  private offsetMs = 0;
  private lastMs = 0;

  private constructor(readonly testService: TestService) {}

  /** Reads the server's time once; fails when the server is not a time-skipping test server. */
  static async start(testService: TestService | undefined): Promise<TestServerClock> {
    if (!testService) throw new Error('the Temporal connection was opened without the test service');
    const clock = new TestServerClock(testService);
    await clock.sync();
    return clock;
  }

  now(): Date {
    // Never backwards: a sync may land a millisecond below an earlier reading.
    this.lastMs = Math.max(this.lastMs, Date.now() + this.offsetMs);
    return new Date(this.lastMs);
  }

  /**
   * Re-reads the server and answers its time as read. The offset counts from the moment the call
   * was sent, so `now()` is never behind the server (ahead by at most the call's round trip).
   */
  async sync(): Promise<Date> {
    const sentAt = Date.now();
    const { time } = await this.testService.getCurrentTime({});
    const serverMs = tsToMs(time);
    this.offsetMs = serverMs - sentAt;
    return new Date(serverMs);
  }
}
