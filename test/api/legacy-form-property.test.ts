import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { formBody, hmac, postForm, type Pairs } from '../support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { legacyEntries, pluginForm } from '../support/plugin-forms';

/**
 * An attacker as a property. The payer holds a plugin's signed checkout form (from the fixtures)
 * whose payer-typed fields carry values of their choosing, signed by the plugin or by a merchant's
 * own code over the raw values. They rename, merge, split, drop and add fields, keeping the
 * checksum where they can, and post the result to /transact, /transact?v=2, /updatetransaction and
 * /checktransaction. Nothing may happen but what the merchant signed for that endpoint: a page
 * only for the signed order, amount and returnUrl; no refund; no status read.
 *
 * FC_RUNS (default 150) and FC_SEED reproduce or widen a run.
 */
const UPDATE_NAMES = ['merchantIdentifier', 'orderId', 'mode', 'updateDesired', 'updateReason', 'amount', 'merchantRefId'];
const CHECK_NAMES = ['merchantIdentifier', 'orderId', 'mode', 'submitButton'];
const CHECKOUT_NAMES = [
  'amount',
  'orderId',
  'returnUrl',
  'currency',
  'merchantIdentifier',
  'buyerFirstName',
  'productDescription',
];
const NAMES = [...new Set([...UPDATE_NAMES, ...CHECK_NAMES, ...CHECKOUT_NAMES, 'x', 'y', 'btn_submit', 'securityToken', 'udf1'])];

type Op =
  | { kind: 'rename'; at: number; name: string }
  | { kind: 'move'; name: string; from: number }
  | { kind: 'merge'; at: number; length: number; name: string }
  | { kind: 'split'; at: number; name: string }
  | { kind: 'drop'; at: number }
  | { kind: 'add'; at: number; name: string; value: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('rename' as const), at: fc.nat(), name: fc.constantFrom(...NAMES) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('move' as const),
      name: fc.constantFrom('amount', 'orderId', 'returnUrl'),
      from: fc.nat(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('merge' as const),
      at: fc.nat(),
      length: fc.integer({ min: 2, max: 8 }),
      name: fc.constantFrom(...NAMES),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('split' as const), at: fc.nat(), name: fc.constantFrom(...NAMES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      at: fc.nat(),
      name: fc.constantFrom(...NAMES),
      value: fc.constantFrom('', '1', '14'),
    }),
  },
);

/** Applies one rearrangement to the fields (checksum left out); the quoted text is kept by rename, move, merge and split. */
function apply(fields: Pairs, op: Op, payerAt: number[]): Pairs {
  const f = fields.map(([k, v]) => [k, v] as [string, string]);
  const i = (n: number) => n % Math.max(f.length, 1);
  switch (op.kind) {
    case 'rename':
      f[i(op.at)]![0] = op.name;
      return f;
    case 'move': {
      // The payer's value under the signed field's name; the values between merged into the field after it.
      const target = f.findIndex(([k]) => k === op.name);
      const from = payerAt.length ? payerAt[op.from % payerAt.length]! : -1;
      if (target < 0 || from < 0 || from >= target || target + 1 >= f.length) return f;
      const merged = f
        .slice(from + 1, target + 2)
        .map(([, v]) => v)
        .join("''");
      return [...f.slice(0, from), [op.name, f[from]![1]], [f[target + 1]![0], merged], ...f.slice(target + 2)];
    }
    case 'merge': {
      const at = i(op.at);
      const merged = f
        .slice(at, at + op.length)
        .map(([, v]) => v)
        .join("''");
      return [...f.slice(0, at), [op.name, merged], ...f.slice(at + op.length)];
    }
    case 'split': {
      const at = f.findIndex(([, v], n) => n >= i(op.at) && v.includes("''"));
      if (at < 0) return f;
      const [k, v] = f[at]!;
      const cut = v.indexOf("''");
      return [...f.slice(0, at), [k, v.slice(0, cut)], [op.name, v.slice(cut + 2)], ...f.slice(at + 1)];
    }
    case 'drop':
      return f.filter((_, n) => n !== i(op.at));
    case 'add':
      return [...f.slice(0, i(op.at)), [op.name, op.value], ...f.slice(i(op.at))];
  }
}

describe('Legacy forms: an attacker as a property (renamings, merges, splits, drops, additions)', function () {
  this.timeout(600_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let paid: string;
  let others: string;
  before(async () => {
    ({ gw, merchant } = await gatewayWithNewMerchant('Attacker Property'));
    [paid, others] = [newOrderId('paid'), newOrderId('others')];
    for (const orderId of [paid, others]) {
      await sandboxPay(gw, {
        merchantIdentifier: merchant.merchantIdentifier,
        orderId,
        amount: 10_000,
        payerVpa: 'success@sandbox',
      });
      await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    }
  });

  const xml = new XMLParser({ parseTagValue: false });
  async function postXml(path: string, pairs: Pairs): Promise<Record<string, string>> {
    const res = await fetch(`${gw.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: formBody(pairs),
    });
    assert.ok(res.status < 500, `${path}: ${res.status}`);
    return xml.parse(await res.text()).zaakpay_response.response_element;
  }

  it('nothing but what the merchant signed happens, for any signed fixture form', async () => {
    const entries = legacyEntries().filter(({ entry }) => entry.endpoint.startsWith('/transact'));
    const typedValue = fc.constantFrom(
      '900',
      '14',
      '22',
      '1',
      '0',
      'INR',
      'Test reason',
      'Kumar',
      'https://evil.example/r',
      "O'Brien",
      "a''b",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: entries.length - 1 }),
        fc.array(typedValue, { minLength: 16, maxLength: 16 }),
        fc.boolean(),
        fc.array(opArb, { minLength: 1, maxLength: 4 }),
        async (which, typed, rawSigned, ops) => {
          const { fixture, entry } = entries[which]!;
          const fresh = newOrderId('prop');
          const run = async (orderId: string): Promise<{ fields: Pairs; checksum: string; payerAt: number[] }> => {
            const values = Object.fromEntries(entry.payerTyped.map((k, n) => [k, typed[n % typed.length]!]));
            const form = pluginForm(fixture, entry, {
              merchantIdentifier: merchant.merchantIdentifier,
              secretKey: merchant.secretKey,
              orderId,
              amount: '50000000',
              returnUrl: 'https://shop.example/zp/return',
              txnDate: '2026-12-02',
              typed: values,
            });
            const signedNames = entry.signedFields as string[];
            const fields = form.filter(([k]) => signedNames.includes(k));
            // A merchant's own code signs the raw values, in the form's order.
            const checksum = rawSigned
              ? hmac(merchant.secretKey, fields.map(([, v]) => `'${v}'`).join(''))
              : new Map(form).get('checksum')!;
            const payerAt = fields.flatMap(([k], n) => (entry.payerTyped.includes(k) ? [n] : []));
            return { fields, checksum, payerAt };
          };
          const mutate = ({ fields, checksum, payerAt }: Awaited<ReturnType<typeof run>>): Pairs => [
            ...ops.reduce((f, op) => apply(f, op, payerAt), fields),
            ['checksum', checksum],
          ];

          // /transact and ?v=2, for a fresh order: a page only for the signed order, amount and returnUrl.
          const checkout = mutate(await run(fresh));
          for (const v of ['', '?v=2']) {
            const res = await postForm(`${gw.baseUrl}/transact${v}`, checkout);
            assert.ok(res.status < 500, res.text);
            if (res.status !== 303) continue;
            const t = await storedTransaction(gw, merchant.merchantIdentifier, fresh);
            assert.ok(t, `a page opened for another order: ${JSON.stringify(checkout)}`);
            assert.equal(t.amountPaise, 50_000_000, `a page for another amount: ${JSON.stringify(checkout)}`);
            const page = await gw.rt.store.db
              .collection('checkouts')
              .findOne({ merchantIdentifier: merchant.merchantIdentifier, orderId: fresh });
            assert.equal(page?.returnUrl, 'https://shop.example/zp/return', 'another returnUrl');
          }
          signedIds.add(fresh);
          const ids = await gw.rt.store.db
            .collection('checkouts')
            .distinct('orderId', { merchantIdentifier: merchant.merchantIdentifier });
          const stray = ids.find((id) => !signedIds.has(String(id)));
          assert.equal(stray, undefined, `a page for an order the merchant did not sign: ${JSON.stringify(checkout)}`);

          // The paid order's form at the XML APIs: no refund, no status.
          const signedPaid = mutate(await run(paid));
          const refund = await postXml('/updatetransaction', signedPaid);
          assert.ok(!['230', '245'].includes(refund.responsecode!), `a refund: ${JSON.stringify(signedPaid)}`);
          const status = await postXml('/checktransaction', signedPaid);
          assert.equal(status.txnstatus, undefined, `a status read: ${JSON.stringify(signedPaid)}`);
          for (const orderId of [paid, others]) {
            assert.deepEqual((await storedTransaction(gw, merchant.merchantIdentifier, orderId))!.refunds, [], 'no refund');
          }
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 150), ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
    );
  });
  const signedIds = new Set<string>();
});
