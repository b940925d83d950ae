import { PNG } from 'pngjs';
import QRCode from 'qrcode';

export const QR_SIZE = { default: 200, min: 100, max: 1000 } as const;

/**
 * A PNG of exactly `width` x `height` pixels holding the QR of `text`: the QR (rendered by the
 * `qrcode` library, square by nature) at the smaller side, centred on white.
 */
export async function renderQrPng(text: string, width: number, height: number): Promise<Buffer> {
  const side = Math.min(width, height);
  const square = PNG.sync.read(await QRCode.toBuffer(text, { type: 'png', width: side, margin: 2, errorCorrectionLevel: 'M' }));
  if (square.width === width && square.height === height) return PNG.sync.write(square);
  const canvas = new PNG({ width, height });
  canvas.data.fill(255);
  // qrcode rounds the side to whole modules, so the square may be a few pixels smaller than asked.
  const left = Math.floor((width - square.width) / 2);
  const top = Math.floor((height - square.height) / 2);
  PNG.bitblt(
    square,
    canvas,
    0,
    0,
    Math.min(square.width, width),
    Math.min(square.height, height),
    Math.max(0, left),
    Math.max(0, top),
  );
  return PNG.sync.write(canvas);
}
