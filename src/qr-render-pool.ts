import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QrRenderReply, QrRenderTask } from './qr-render-worker';

interface Pending {
  task: QrRenderTask;
  resolve: (png: Buffer) => void;
  reject: (e: Error) => void;
}

/**
 * A small pool of worker threads rendering QR PNGs, so a batch of hundreds of large images never
 * blocks the event loop (every merchant's requests) for seconds. Workers start on first use, take
 * one task at a time from a shared queue, and never keep the process alive on their own; a worker
 * that dies fails its task and is replaced on the next one.
 */
export class QrRenderPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly size: number) {}

  render(text: string, width: number, height: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task: { id: this.nextId++, text, width, height }, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker (tests, shutdown); a later render starts new ones. */
  async close(): Promise<void> {
    const all = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.idle.pop() ?? (this.busy.size < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const next = this.queue.shift()!;
      this.busy.set(worker, next);
      worker.postMessage(next.task);
    }
  }

  private spawn(): Worker {
    const worker = startWorker();
    worker.unref();
    worker.on('message', (reply: QrRenderReply) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      this.idle.push(worker);
      if (pending && pending.task.id === reply.id) {
        if ('png' in reply) pending.resolve(Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength));
        else pending.reject(new Error(`QR rendering failed: ${reply.error}`));
      }
      this.dispatch();
    });
    const gone = (e: Error) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      pending?.reject(e);
      this.dispatch();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`QR render worker exited (${code})`)));
    return worker;
  }
}

/**
 * The worker's module, next to this one: compiled JavaScript in an image; under tsx (development,
 * tests) the TypeScript source, loaded through tsx's require hook inside the thread.
 */
function startWorker(): Worker {
  const file = path.join(__dirname, `qr-render-worker${path.extname(__filename)}`);
  if (file.endsWith('.ts')) {
    return new Worker(`require('tsx/cjs'); require(${JSON.stringify(file)});`, { eval: true });
  }
  return new Worker(file);
}

/** Threads for QR rendering: all cores but one for the event loop, at least one, at most four. */
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism() - 1));

/** The process's one pool (stateless: any replica renders any image). */
export const qrRenderPool = new QrRenderPool(POOL_SIZE);

/** renderQrPng (domain/qr-png.ts) in the pool. */
export const renderQrPngOffLoop = (text: string, width: number, height: number): Promise<Buffer> =>
  qrRenderPool.render(text, width, height);
