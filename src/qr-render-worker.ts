import { parentPort } from 'node:worker_threads';
import { renderQrPng } from './domain/qr-png';

/** One QR PNG per message, rendered off the main thread (qr-render-pool.ts). */
export interface QrRenderTask {
  id: number;
  text: string;
  width: number;
  height: number;
}
export type QrRenderReply = { id: number; png: Uint8Array } | { id: number; error: string };

parentPort?.on('message', (task: QrRenderTask) => {
  renderQrPng(task.text, task.width, task.height).then(
    (png) => {
      const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
      parentPort!.postMessage({ id: task.id, png: bytes } satisfies QrRenderReply, [bytes.buffer as ArrayBuffer]);
    },
    (e: unknown) =>
      parentPort!.postMessage({ id: task.id, error: e instanceof Error ? e.message : String(e) } satisfies QrRenderReply),
  );
});
