import { strict as assert } from 'node:assert';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { renderQrPng } from '../../src/domain/qr-png';

describe('QR PNG', () => {
  const intent =
    'upi://pay?pa=gateway%40sandbox&pn=Meera%20Textiles&am=249.50&cu=INR&tr=MWRZOTBI6A121A5BFEF3&tn=Handloom%20saree&mc=5411';
  for (const [text, width, height] of [
    ['http://localhost:3000/pl/AbCdEfGhIjKlMnOpQrStUvWx', 200, 200],
    [intent, 240, 300],
    [intent, 100, 100],
    [intent, 1000, 640],
  ] as const) {
    it(`${width} x ${height}: a valid PNG of exactly that size that a QR reader decodes to the text`, async () => {
      const png = PNG.sync.read(await renderQrPng(text, width, height));
      assert.deepEqual([png.width, png.height], [width, height]);
      const decoded = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
      assert.equal(decoded?.data, text);
    });
  }
});
