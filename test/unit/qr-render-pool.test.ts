import { strict as assert } from 'node:assert';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { batchQrPixels } from '../../src/domain/payment-link';
import { renderQrPng } from '../../src/domain/qr-png';
import { QrRenderPool } from '../../src/qr-render-pool';

describe('QR rendering off the event loop: the worker pool and the pixel budget', function () {
  this.timeout(30_000);
  const pool = new QrRenderPool(2);
  after(() => pool.close());

  it('renders in worker threads the same bytes as on the main thread, each decoding to its text', async () => {
    const texts = Array.from({ length: 6 }, (_, i) => `https://gateway.example/pl/token-${i}`);
    const pngs = await Promise.all(texts.map((t, i) => pool.render('m1', t, 200 + i * 50, 200)));
    for (const [i, bytes] of pngs.entries()) {
      assert.deepEqual(bytes, await renderQrPng(texts[i]!, 200 + i * 50, 200));
      const png = PNG.sync.read(bytes);
      assert.deepEqual([png.width, png.height], [200 + i * 50, 200]);
      assert.equal(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data, texts[i]);
    }
  });

  it('keeps the event loop free while it renders', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await Promise.all(Array.from({ length: 8 }, (_, i) => pool.render('m1', `https://gateway.example/pl/big-${i}`, 1000, 1000)));
    clearInterval(timer);
    // On the main thread eight 1000 px images would hold the loop the whole time: no tick at all.
    assert.ok(ticks > 0, 'timers ran during the renders');
  });

  it('fails a render that throws, and goes on rendering', async () => {
    await assert.rejects(() => pool.render('m1', 'x'.repeat(8000), 200, 200), /QR rendering failed/);
    assert.ok((await pool.render('m1', 'after', 120, 120)).length > 0);
  });

  it("takes merchants' images in turn: one merchant's single QR completes while another's big batch still waits", async () => {
    const one = new QrRenderPool(1);
    try {
      const done: string[] = [];
      const render = (owner: string, i: number) =>
        one.render(owner, `https://gateway.example/pl/${owner}-${i}`, 600, 600).then(() => done.push(`${owner}-${i}`));
      const batch = Array.from({ length: 40 }, (_, i) => render('merchant-a', i));
      const single = render('merchant-b', 0);
      await Promise.all([...batch, single]);
      // A's first image was already rendering; B's is next, ahead of the 39 A queued before it.
      assert.deepEqual(done.slice(0, 3), ['merchant-a-0', 'merchant-b-0', 'merchant-a-1']);
      assert.equal(done.length, 41);
    } finally {
      await one.close();
    }
  });

  it('counts the pixels a payment link batch asks for: QR entries only, default size when none given', () => {
    const entry = (e: object) => ({
      raw: e,
      entry: { orderId: 'o', productDescription: 'p', ...e },
      amountPaise: 1000,
      expireBy: new Date(),
    });
    assert.equal(
      batchQrPixels([
        entry({ showQrImg: true, qrImgSize: { width: 1000, height: 500 } }),
        entry({ showQrImg: true }),
        entry({ showQrImg: false, qrImgSize: { width: 1000, height: 1000 } }),
        { raw: {}, problem: 'amount: too small' },
      ]),
      500_000 + 200 * 200,
    );
  });
});
