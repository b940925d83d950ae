import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { PaymentLinkRepository } from '../../src/store/payment-link-repository';
import { TransactionRepository } from '../../src/store/transaction-repository';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { createLinks, linkEntry, linkPath, newBatchId, openLink } from '../support/payment-links';
import { sandboxPay } from '../support/payments';

/**
 * A batch whose creation fails half way (an insert refused after part of it was written) is
 * completed by the same request sent again: every entry gets its link and the answer is the one a
 * clean run gives. The same request once more answers the same links.
 */
describe('Payment links: a batch that failed half way completes when the same request is sent again', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw?.stop());

  // One request body for every merchant: a QR, plain links, an invalid entry, an orderId another
  // order holds, and an orderId given twice.
  const id = randomBytes(4).toString('hex');
  const taken = `taken-${id}`;
  const details = [
    linkEntry({ orderId: `a-${id}`, showQrImg: true, qrImgSize: { width: 150, height: 150 } }),
    linkEntry({ orderId: `b-${id}` }),
    linkEntry({ orderId: `c-${id}`, amount: 5 }),
    linkEntry({ orderId: taken }),
    linkEntry({ orderId: `b-${id}` }),
    linkEntry({ orderId: `d-${id}`, showQrImg: true }),
  ];
  const body = { batchId: newBatchId(), details };

  async function merchantWithTakenOrder(name: string): Promise<MerchantCredentials> {
    const m = await gw.newMerchant(name);
    const paid = await sandboxPay(gw, { merchantIdentifier: m.merchantIdentifier, orderId: taken, payerVpa: 'success@sandbox' });
    assert.equal(paid.status, 202, paid.text);
    return m;
  }
  /** The answer without what differs between merchants: the tokens, and the QR codes drawn from them. */
  const shape = (answer: { data: { link: string | null; qrCode?: string }[] }) => ({
    ...answer,
    data: answer.data.map((d) => ({
      ...d,
      ...(d.link ? { link: d.link.replace(/\/pl\/[^/]+$/, '/pl/<token>') } : {}),
      ...(d.qrCode ? { qrCode: 'a PNG' } : {}),
    })),
  });

  /** Makes `method` write the first item it is given, then fail, once. */
  function failOnceHalfWay<T extends object>(proto: T, method: keyof T & string) {
    const real = proto[method] as (items: unknown[]) => Promise<unknown>;
    let failed = false;
    (proto as Record<string, unknown>)[method] = async function (this: unknown, items: unknown[]) {
      if (failed || items.length < 2) return real.call(this, items);
      failed = true;
      await real.call(this, items.slice(0, 1));
      throw new Error('the store went away half way');
    };
    return {
      get failed() {
        return failed;
      },
      restore: () => void ((proto as Record<string, unknown>)[method] = real),
    };
  }

  let clean: any;
  before(async () => {
    const m = await merchantWithTakenOrder('Clean batch');
    const res = await createLinks(gw, m.apiKey, body);
    assert.equal(res.status, 200, res.text);
    clean = res.json;
    assert.match(clean.data[2].errorDescription, /^amount: /);
    assert.deepEqual(
      clean.data.map((d: { link: string | null; errorDescription?: string }) => (d.link ? 'link' : d.errorDescription)),
      [
        'link',
        'link',
        clean.data[2].errorDescription,
        'orderId: already used for another order',
        'orderId: already used for another order',
        'link',
      ],
    );
  });

  const faults: [string, () => ReturnType<typeof failOnceHalfWay>][] = [
    ['the links insert (the second)', () => failOnceHalfWay(PaymentLinkRepository.prototype, 'insert')],
    ['the orders insert (the first)', () => failOnceHalfWay(TransactionRepository.prototype, 'createPendingMany')],
  ];
  for (const [what, inject] of faults) {
    it(`${what} fails half way once: the retry answers as a clean run and every entry has its link`, async () => {
      const m = await merchantWithTakenOrder(`Retried batch ${what}`);
      const fault = inject();
      let first;
      try {
        first = await createLinks(gw, m.apiKey, body);
      } finally {
        fault.restore();
      }
      assert.ok(fault.failed, 'the fault happened');
      assert.notEqual(first.status, 200, first.text);

      const retry = await createLinks(gw, m.apiKey, body);
      assert.equal(retry.status, 200, retry.text);
      assert.deepEqual(shape(retry.json), shape(clean));
      // The same request again: the same answer, to the token and the QR code.
      const again = await createLinks(gw, m.apiKey, body);
      assert.deepEqual(again.json, retry.json);

      const links = retry.json.data.filter((d: { link: string | null }) => d.link);
      for (const d of links) {
        assert.equal((await openLink(gw, linkPath(d.link))).status, 200, `${d.orderId}'s page`);
        const t = await gw.rt.transactions.findByOrder({ merchantIdentifier: m.merchantIdentifier, orderId: d.orderId });
        assert.equal(t?.status, 'Pending');
      }
      const stored = await gw.rt.store.db
        .collection('payment_links')
        .countDocuments({ merchantIdentifier: m.merchantIdentifier });
      assert.equal(stored, links.length, 'one link per entry, none left over from the failed try');
    });
  }

  it('the same batchId with another request refuses every entry, and creates nothing', async () => {
    const m = await merchantWithTakenOrder('Other body');
    assert.equal((await createLinks(gw, m.apiKey, body)).json.statusCode, 207);
    const other = [linkEntry(), linkEntry({ orderId: `a-${id}` })];
    const res = await createLinks(gw, m.apiKey, { batchId: body.batchId, details: other });
    assert.deepEqual(
      res.json.data.map((d: { errorDescription: string }) => d.errorDescription),
      ['batchId: already used for another batch', 'batchId: already used for another batch'],
    );
    const t = await gw.rt.transactions.findByOrder({
      merchantIdentifier: m.merchantIdentifier,
      orderId: other[0]!.orderId as string,
    });
    assert.equal(t, null);
  });
});
