import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { QrRenderReply, QrRenderTask } from './qr-render-worker';

interface Pending {
  owner: string;
  task: QrRenderTask;
  resolve: (png: Buffer) => void;
  reject: (e: Error) => void;
}

/** One owner's tasks: those waiting, and how many were started since it last had none at all. */
interface OwnerQueue {
  waiting: Pending[];
  started: number;
  running: number;
}

/**
 * A small pool of worker threads rendering QR PNGs, so a batch of hundreds of large images never
 * blocks the event loop (every merchant's requests) for seconds. Workers start on first use, take
 * one task at a time, and never keep the process alive on their own; a worker that dies fails its
 * task and is replaced on the next one.
 *
 * Fair between owners (merchants): the next task is the oldest of the owner that has started the
 * fewest tasks since it last had nothing waiting or running (ties: the owner that came first). A
 * merchant's batch of 500 QR codes never makes another merchant's single QR wait behind it: that
 * one starts as soon as a thread is free.
 */
export class QrRenderPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly owners = new Map<string, OwnerQueue>();
  private nextId = 1;

  constructor(private readonly size: number) {}

  render(owner: string, text: string, width: number, height: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      let queue = this.owners.get(owner);
      if (!queue) this.owners.set(owner, (queue = { waiting: [], started: 0, running: 0 }));
      queue.waiting.push({ owner, task: { id: this.nextId++, text, width, height }, resolve, reject });
      this.dispatch();
    });
  }

  /** The next task in turn (see the class), or none waiting. */
  private take(): Pending | undefined {
    let chosen: OwnerQueue | undefined;
    for (const queue of this.owners.values()) {
      if (queue.waiting.length > 0 && (!chosen || queue.started < chosen.started)) chosen = queue;
    }
    if (!chosen) return undefined;
    chosen.started++;
    chosen.running++;
    return chosen.waiting.shift();
  }

  /** A task of `owner` ended; an owner with nothing left is forgotten (its count starts again). */
  private finished(owner: string): void {
    const queue = this.owners.get(owner);
    if (!queue) return;
    queue.running--;
    if (queue.running <= 0 && queue.waiting.length === 0) this.owners.delete(owner);
  }

  /** Stops every worker (tests, shutdown); a later render starts new ones. */
  async close(): Promise<void> {
    const all = [...this.idle, ...this.busy.keys()];
    this.idle.length = 0;
    await Promise.all(all.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while ([...this.owners.values()].some((q) => q.waiting.length > 0)) {
      const worker = this.idle.pop() ?? (this.busy.size < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const next = this.take()!;
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
      if (pending) this.finished(pending.owner);
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
      if (pending) this.finished(pending.owner);
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

/** renderQrPng (domain/qr-png.ts) in the pool, queued with the other images of `merchantIdentifier`. */
export const renderQrPngOffLoop = (merchantIdentifier: string, text: string, width: number, height: number): Promise<Buffer> =>
  qrRenderPool.render(merchantIdentifier, text, width, height);
