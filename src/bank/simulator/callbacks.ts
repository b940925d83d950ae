import type { BankCallback } from '../protocol';
import { signedCall } from '../signed-http';
import type { CallbackRecord, SimulatorBooks } from './books';
import { faultOf, type Fault } from './faults';

/**
 * The simulator's callbacks: each one signed, retried on 5xx or no answer like a real acquirer's,
 * and recorded in the books. `notify` sends a final answer and whatever copies the request's
 * faults ask for (duplicates, a stale contradicting one, all of them reordered).
 */
export interface CallbackSettings {
  secret: string;
  books: SimulatorBooks;
  /** Waits between attempts of one callback (the first is usually 0). */
  retryMs: number[];
  timeoutMs: number;
  /** Keeps the sending promise, so the simulator's `idle()` waits for it. */
  track: (p: Promise<void>) => void;
  random: () => number;
  log: (line: string) => void;
}

export function callbackSender(s: CallbackSettings) {
  function send(url: string, callback: BankCallback, reason: CallbackRecord['reason'], then?: () => void, waitMs = 0) {
    const record: CallbackRecord = { callback, url, reason, attempts: [], state: 'sending' };
    s.books.callbacks.push(record);
    s.track(
      (async () => {
        if (waitMs > 0) await sleep(waitMs);
        for (const wait of s.retryMs) {
          if (wait > 0) await sleep(wait);
          const at = new Date().toISOString();
          try {
            const res = await signedCall({ secret: s.secret, method: 'POST', url, body: callback, timeoutMs: s.timeoutMs });
            record.attempts.push({ at, status: res.status, body: res.text.slice(0, 500) });
            if (res.status >= 200 && res.status < 300) {
              record.state = 'delivered';
              break;
            }
            if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
              record.state = 'refused';
              s.log(`callback ${callback.eventId} refused with ${res.status}: ${res.text.slice(0, 200)}`);
              break;
            }
          } catch (e) {
            record.attempts.push({ at, status: null, error: (e as Error).message });
          }
        }
        if (record.state === 'sending') record.state = 'gaveUp';
        then?.();
      })(),
    );
  }

  /** The final callback, then the copies the request's faults asked for. */
  function notify(url: string, callback: BankCallback, requestFaults: Fault[]) {
    const copies = faultOf(requestFaults, 'duplicateCallback')?.copies ?? 0;
    const reorder = faultOf(requestFaults, 'reorderCallbacks');
    const stale = () => {
      if (!faultOf(requestFaults, 'outOfOrderCallback') || !('status' in callback)) return;
      const opposite: BankCallback = { ...callback, eventId: `${callback.eventId}-stale`, status: flip(callback.status) };
      if (opposite.type === 'payment') Object.assign(opposite, { bankRefNum: null, authCode: null, responseCode: '05' });
      send(url, opposite, 'outOfOrder');
    };
    if (reorder) {
      // Every copy leaves on its own random wait; the stale one only after the final was sent.
      const wait = () => Math.floor(s.random() * reorder.maxDelayMs);
      send(url, callback, 'final', stale, wait());
      for (let i = 0; i < copies; i++) send(url, callback, 'duplicate', undefined, wait());
      return;
    }
    send(url, callback, 'final', () => {
      for (let i = 0; i < copies; i++) send(url, callback, 'duplicate');
      stale();
    });
  }

  return { send, notify };
}

const flip = (s: 'APPROVED' | 'DECLINED') => (s === 'APPROVED' ? 'DECLINED' : 'APPROVED');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
