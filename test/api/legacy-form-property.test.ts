import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { formBody, hmac, phpSanitize, postForm, type Pairs } from '../support/checkout';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { apply, EVIL_RETURN, opArb, OTHER_ORDER, typedFor, type Target } from '../support/legacy-form-attacks';
import {
  checksumPlacingArb,
  checkoutPathsArb,
  opensPages,
  placeChecksum,
  xmlSourceForm,
  xmlSources,
} from '../support/legacy-form-posting';
import { legacyEntries, pluginForm } from '../support/plugin-forms';

/**
 * An attacker as a property. The payer holds a plugin's signed checkout form (from the fixtures)
 * whose payer-typed fields carry values of their choosing, signed by the plugin or by a merchant's
 * own code over the raw values. They rename, merge, split, drop and add fields, keeping the
 * checksum where they can (anywhere in the form, or twice), and post the result to /transact,
 * /transact?v=2, ?v=3, unknown versions, /transactU, /updatetransaction and /checktransaction. They
 * also start from the kits' signed status and update forms, and post names and values that PHP
 * reads otherwise (test/support/legacy-form-attacks.ts and legacy-form-posting.ts). Nothing may happen but what the merchant
 * signed for that endpoint: a page only for the signed order, amount, returnUrl, currency, mode and
 * txnType, and only at /transact (plain, v=2, v=3); no mandate; no refund; a status read only of
 * the order a status form was signed for.
 *
 * Besides blind rearrangements the attacker aims: they type a value that suits one of the
 * endpoint's decisive names in a payer-typed field and rename that field to it (updateDesired on a
 * '14'), or shift: they type the form's next values and their own joined by `''`, so the signed
 * text re-splits under the kit's own names with theirs under the decisive one (the amount). What
 * happened is read from the store (the order's amount and page, the refunds stored), not from the
 * answer's code. Before the attacks each kit's genuine form must open its page (and each status
 * form read its order): a kit whose form the gateway refuses would be tested for nothing.
 * test/api/legacy-form-plants.test.ts shows the property failing with the old bugs put back.
 *
 * FC_RUNS (default 300) and FC_SEED reproduce or widen a run.
 */
const SIGNED_RETURN = 'https://shop.example/zp/return';
const DEFAULT_RETURN = 'https://shop.example/zp/default';

describe('Legacy forms: an attacker as a property (renamings, merges, splits, drops, additions)', function () {
  this.timeout(600_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  let paid: string;
  let others: string;
  after(() => gw?.stop());
  before(async () => {
    // No rate limits: the attacker's posts must reach the checks, not the limiter.
    gw = await startTestGateway({ RATE_LIMIT_PER_SECOND: '0' });
    merchant = await gw.newMerchant('Attacker Property');
    // The kits that post no returnUrl open pages only for a merchant with a default one.
    const patched = await fetch(`${gw.baseUrl}/ops/v1/merchants/${merchant.merchantIdentifier}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${gw.rt.config.secrets.opsToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ defaultReturnUrl: DEFAULT_RETURN }),
    });
    assert.equal(patched.status, 200, await patched.text());
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

  const targets = {
    checkout: '/transact, ?v=2, ?v=3, other versions and /transactU: a page only for what the merchant signed',
    refund: '/updatetransaction: no refund',
    status: '/checktransaction: a status read only of the order a status form was signed for',
  } as const;
  for (const [target, what] of Object.entries(targets)) {
    it(`${what}, for any signed fixture form`, () => property(target as Target));
  }

  const refundCount = async () => {
    let n = 0;
    for (const orderId of [paid, others])
      n += (await storedTransaction(gw, merchant.merchantIdentifier, orderId))!.refunds.length;
    return n;
  };
  const rupees = (paise: number) => `Rs ${(paise / 100).toFixed(2)}`;
  const formContext = (orderId: string, typed: Record<string, string>) => ({
    merchantIdentifier: merchant.merchantIdentifier,
    secretKey: merchant.secretKey,
    orderId,
    amount: '50000000',
    returnUrl: SIGNED_RETURN,
    txnDate: '2026-12-02',
    typed,
  });
  const checkoutOf = (orderId: string) =>
    gw.rt.store.db.collection('checkouts').findOne({ merchantIdentifier: merchant.merchantIdentifier, orderId });

  /**
   * The page opened for `orderId` is the signed form's: its order, amount and returnUrl (the
   * merchant's default when the kit signs none), and the form the gateway read carried the signed
   * currency, mode and txnType (the order keeps none of them: the gateway takes INR alone and
   * ignores the other two, so what it read is what it acted on).
   */
  async function pageAsSigned(orderId: string, signed: Map<string, string>, posted: Map<string, string>, shown: string) {
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.ok(t, `a page for another order: ${shown}`);
    const amount = Number(signed.get('amount'));
    assert.equal(
      t.amountPaise,
      amount,
      `a page for ${rupees(t.amountPaise)} where the merchant signed ${rupees(amount)}: ${shown}`,
    );
    const page = await checkoutOf(orderId);
    const returnUrl = signed.get('returnUrl') || DEFAULT_RETURN;
    assert.equal(page?.returnUrl, returnUrl, `a page for another returnUrl, ${String(page?.returnUrl)}: ${shown}`);
    for (const k of ['currency', 'mode', 'txnType']) {
      const [read, want] = [phpSanitize(k, posted.get(k) ?? ''), phpSanitize(k, signed.get(k) ?? '')];
      assert.equal(
        read,
        want,
        `a page for ${k} ${JSON.stringify(read)} where the merchant signed ${JSON.stringify(want)}: ${shown}`,
      );
    }
  }

  /** Each kit's genuine form, as its page posts it, opens its page as signed: else that kit is tested for nothing. */
  async function genuineFormsOpen(entries: ReturnType<typeof legacyEntries>) {
    for (const { fixture, entry } of entries) {
      const orderId = newOrderId('kit');
      const form = pluginForm(fixture, entry, formContext(orderId, {}));
      const shown = `${fixture.name} ${entry.variant ?? ''} ${JSON.stringify(form)}`;
      const res = await postForm(`${gw.baseUrl}${entry.endpoint}`, form);
      assert.equal(res.status, 303, `the genuine form opened no page: ${res.text}: ${shown}`);
      const signed = new Map(form.filter(([k]) => (entry.signedFields as string[]).includes(k)));
      await pageAsSigned(orderId, signed, new Map(form), `the genuine form: ${shown}`);
    }
  }

  /** Each kit's genuine status form reads the order it was signed for. */
  async function genuineStatusReads(sources: ReturnType<typeof xmlSources>) {
    for (const s of sources) {
      const form = xmlSourceForm(s, { ...formContext(paid, {}), typed: {} });
      const status = await postXml(s.call.endpoint, form);
      assert.equal(status.orderid, paid, `${s.fixture.name}'s genuine status form: ${JSON.stringify(status)}`);
      assert.notEqual(status.txnstatus, undefined, `${s.fixture.name}'s genuine status form read no status`);
    }
  }

  async function property(target: Target) {
    const checkouts = legacyEntries().filter(({ entry }) => entry.endpoint.startsWith('/transact'));
    const calls = xmlSources();
    const sources = [
      ...checkouts.map((c) => ({ label: c.fixture.name, payerTyped: c.entry.payerTyped, checkout: c, call: null })),
      ...calls.map((c) => ({ label: `${c.fixture.name} ${c.kind}`, payerTyped: c.payerTyped, checkout: null, call: c })),
    ];
    if (target === 'checkout') await genuineFormsOpen(checkouts);
    if (target === 'status') await genuineStatusReads(calls.filter((c) => c.kind === 'status'));
    const typedValue = fc.constantFrom(
      '900',
      '14',
      '22',
      '1',
      '0',
      'INR',
      'Test reason',
      'Kumar',
      EVIL_RETURN,
      "O'Brien",
      "a''b",
      // What PHP's $_POST or a trim would read otherwise.
      '900\0',
      ' 900',
      '900 ',
      'a.b c[]',
      '\0',
    );
    await fc.assert(
      fc.asyncProperty(
        // Mostly a checkout form (the payer holds it); sometimes a kit's signed status or update form.
        fc.oneof(
          { weight: 4, arbitrary: fc.nat({ max: checkouts.length - 1 }) },
          { weight: 1, arbitrary: fc.integer({ min: checkouts.length, max: sources.length - 1 }) },
        ),
        // null: the field holds what a usual shopper types (a real e-mail address, a name).
        fc.array(fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: typedValue }), {
          minLength: 16,
          maxLength: 16,
        }),
        fc.boolean(),
        fc.array(opArb(target), { minLength: 1, maxLength: 3 }),
        checksumPlacingArb,
        checkoutPathsArb,
        async (which, typed, rawSigned, planned, placing, [first, drawn]) => {
          const source = sources[which]!;
          const startedAt = gw.rt.now();
          const fresh = newOrderId('prop');
          // Another order: one the merchant never signed a form for, or (at the XML APIs) another paid one.
          const other = target === 'checkout' ? newOrderId('stray') : others;
          const ops = planned.map((op) => ('value' in op && op.value === OTHER_ORDER ? { ...op, value: other } : op));
          const signedNames = (source.checkout ? source.checkout.entry.signedFields : source.call.call.signedFields) as string[];
          const run = (orderId: string): { fields: Pairs; checksum: string; payerAt: number[] } => {
            const formWith = (values: Record<string, string>) =>
              source.checkout
                ? pluginForm(source.checkout.fixture, source.checkout.entry, formContext(orderId, values))
                : xmlSourceForm(source.call, { ...formContext(orderId, values), typed: values });
            const signedOf = (values: Record<string, string>) => formWith(values).filter(([k]) => signedNames.includes(k));
            const base = Object.fromEntries(source.payerTyped.flatMap((k, n) => (typed[n] === null ? [] : [[k, typed[n]!]])));
            const form = formWith(typedFor(ops, source.payerTyped, base, signedOf));
            const fields = form.filter(([k]) => signedNames.includes(k));
            // A merchant's own code signs the raw values, in the form's order.
            const checksum = rawSigned
              ? hmac(merchant.secretKey, fields.map(([, v]) => `'${v}'`).join(''))
              : new Map(form).get('checksum')!;
            const payerAt = fields.flatMap(([k], n) => (source.payerTyped.includes(k) ? [n] : []));
            return { fields, checksum, payerAt };
          };
          // A checksum the merchant signed for another form of theirs, for a twin checksum field.
          const otherChecksum = placing.twin === 'other' ? run(newOrderId('alt')).checksum : '';
          const mutate = ({ fields, checksum, payerAt }: ReturnType<typeof run>): Pairs =>
            placeChecksum(
              ops.reduce((f, op) => apply(f, op, payerAt, source.payerTyped), fields),
              checksum,
              otherChecksum,
              placing,
            );

          if (target === 'checkout') {
            // Each post its own signed order: a page opened by the first would make the second's post
            // of the same order a refusal (order used), and its reading would go unchecked.
            let shown = '';
            const signedHere: string[] = [];
            const second = source.checkout?.entry.endpoint === '/transact?v=2' ? '/transact?v=2' : drawn;
            for (const [at, orderId] of [
              [first, fresh],
              [second, newOrderId('prop2')],
            ] as const) {
              signedHere.push(orderId);
              const signedForm = run(orderId);
              const posted = mutate(signedForm);
              shown = `${at} ${JSON.stringify(posted)}`;
              const res = await postForm(`${gw.baseUrl}${at}`, posted);
              assert.ok(res.status < 500, `${res.status} ${res.text}: ${shown}`);
              if (res.status !== 303) continue;
              assert.ok(source.checkout, `a page from a signed ${source.label} form: ${shown}`);
              assert.ok(opensPages(at), `a page at ${at}: ${shown}`);
              await pageAsSigned(orderId, new Map(signedForm.fields), new Map(posted), shown);
            }
            if (source.checkout) {
              // The same form as signed, for an order of its own: when it opens, it opens as signed.
              const controlId = newOrderId('ctl');
              signedHere.push(controlId);
              const control = run(controlId);
              const genuine = [...control.fields, ['checksum', control.checksum]] as Pairs;
              const res = await postForm(`${gw.baseUrl}${source.checkout.entry.endpoint}`, genuine);
              assert.ok(res.status < 500, `${res.status} ${res.text}: the control ${JSON.stringify(genuine)}`);
              if (res.status === 303)
                await pageAsSigned(
                  controlId,
                  new Map(control.fields),
                  new Map(genuine),
                  `the control ${JSON.stringify(genuine)}`,
                );
            }
            // Any page this run opened: only for an order it signed, only to a returnUrl signed or set.
            // (Pages a failing run left behind are not this run's: shrinking reruns on the same store.)
            const stray = await gw.rt.store.db.collection('checkouts').findOne({
              merchantIdentifier: merchant.merchantIdentifier,
              createdAt: { $gte: startedAt },
              $or: [{ orderId: { $nin: signedHere } }, { returnUrl: { $nin: [SIGNED_RETURN, DEFAULT_RETURN] } }],
            });
            assert.equal(
              stray,
              null,
              `a page for another order or returnUrl, ${stray?.orderId} to ${stray?.returnUrl}, the merchant did not sign: ${shown}`,
            );
            // A mandate could come only from /transactU (its mandate versions).
            if (second.startsWith('/transactU')) {
              const mandates = await gw.rt.store.db
                .collection('mandates')
                .countDocuments({ merchantIdentifier: merchant.merchantIdentifier, createdAt: { $gte: startedAt } });
              assert.equal(mandates, 0, `a mandate from a signed form: ${shown}`);
            }
            return;
          }

          // The paid order's form (a checkout form, which the merchant never signed for the XML
          // APIs, or a kit's status or update form) at the XML APIs.
          const signedPaid = mutate(run(paid));
          const shown = `${source.label} ${JSON.stringify(signedPaid)}`;
          const refundsBefore = await refundCount();
          if (target === 'refund') {
            const refund = await postXml('/updatetransaction', signedPaid);
            assert.ok(!['230', '245'].includes(refund.responsecode!), `a refund (${refund.responsecode}): ${shown}`);
          } else {
            const status = await postXml('/checktransaction', signedPaid);
            // A status form signed for the paid order may read it; nothing else reads anything.
            const allowed = source.call?.kind === 'status' && status.orderid === paid;
            assert.ok(
              status.txnstatus === undefined || allowed,
              `a status read of ${status.orderid} (txnStatus ${status.txnstatus}): ${shown}`,
            );
          }
          assert.equal(await refundCount(), refundsBefore, `a refund stored: ${shown}`);
        },
      ),
      { numRuns: Number(process.env.FC_RUNS ?? 300), ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
    );
  }
});
