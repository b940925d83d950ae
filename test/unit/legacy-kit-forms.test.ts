import { strict as assert } from 'node:assert';
import { ambiguousField, kitFormsOf, matchKitForm } from '../../src/domain/legacy-form-reading';
import { LEGACY_KIT_FORMS } from '../../src/domain/legacy-kit-forms';

const pairsOf = (names: readonly string[], value = (k: string) => `v-${k}`) =>
  names.map((k) => [k, value(k)] as [string, string]);
const named = (kit: string, endpoint = 'transact') => LEGACY_KIT_FORMS.find((f) => f.kit === kit && f.endpoint === endpoint)!;

describe("legacy forms: the kits' field-name sequences and how a form is matched", () => {
  it('every entry: names once each, never checksum, the merchant and the order named; checkouts name the amount', () => {
    for (const f of LEGACY_KIT_FORMS) {
      assert.equal(new Set(f.names).size, f.names.length, f.kit);
      assert.ok(!f.names.includes('checksum'), f.kit);
      assert.ok(f.names.includes('merchantIdentifier') && f.names.includes('orderId'), f.kit);
      if (f.endpoint.startsWith('transact')) assert.ok(f.names.includes('amount'), f.kit);
      assert.match(f.source, /\S+ \S+/, `${f.kit}: its repository and file`);
    }
  });

  it('no checkout form has as many fields as a status or refund form: a signed checkout form cannot be re-read as one', () => {
    const checkoutLengths = new Set(LEGACY_KIT_FORMS.filter((f) => f.endpoint.startsWith('transact')).map((f) => f.names.length));
    for (const f of [...kitFormsOf('checktransaction'), ...kitFormsOf('updatetransaction')]) {
      assert.ok(!checkoutLengths.has(f.names.length), `${f.kit} ${f.endpoint}`);
    }
  });

  it('matches a kit exactly: its names in its order, the checksum anywhere; nothing more, nothing less', () => {
    const php = named('PHP kit');
    const m = matchKitForm('transact', [...pairsOf(php.names), ['checksum', 'c']]);
    assert.ok('kit' in m && m.kit.names === php.names && m.signed.length === php.names.length);
    const dropped = matchKitForm('transact', pairsOf(php.names.filter((k) => k !== 'purpose')));
    assert.deepEqual('problem' in dropped && dropped.problem.field, 'productDescription');
    const renamed = matchKitForm('transact', pairsOf(php.names.map((k) => (k === 'amount' ? 'udf1' : k))));
    assert.deepEqual('problem' in renamed && renamed.problem.field, 'udf1');
    const short = matchKitForm('transact', pairsOf(php.names.slice(0, 5)));
    assert.ok('problem' in short && /^missing/.test(short.problem.why), 'the first field it lacks');
    // A checkout form is no status form.
    assert.ok('problem' in matchKitForm('checktransaction', pairsOf(php.names)));
    // Only WooCommerce 2.0 posts to ?v=2.
    const woo = named('WooCommerce 2.0', 'transactV2');
    assert.ok('kit' in matchKitForm('transactV2', pairsOf(woo.names)));
    assert.ok('problem' in matchKitForm('transactV2', pairsOf(php.names)));
  });

  it("the platform's additions only where it puts them: Zen Cart's securityToken first, osCommerce 2.2's x and y after the checksum, unsigned", () => {
    const os = named('osCommerce 2.3');
    const image = matchKitForm('transact', [...pairsOf(os.names), ['checksum', 'c'], ['x', '12'], ['y', '7']]);
    assert.ok('kit' in image && image.kit.kit === 'osCommerce 2.2');
    assert.deepEqual('kit' in image && image.signed.map(([k]) => k), os.names, 'x and y are not signed');
    assert.ok('problem' in matchKitForm('transact', [...pairsOf(os.names), ['x', '12'], ['y', '7'], ['checksum', 'c']]));
    assert.ok('kit' in matchKitForm('transact', [['securityToken', 't'], ...pairsOf(os.names), ['checksum', 'c']]));
    assert.ok('problem' in matchKitForm('transact', [...pairsOf(os.names), ['securityToken', 't'], ['checksum', 'c']]));
  });

  it('ambiguous: the same values read under another kit of as many fields as another valid request', () => {
    // CS-Cart and osCommerce both post 29 fields, with the amount at 16 and at 13.
    const cs = named('CS-Cart');
    const os = named('osCommerce 2.3');
    assert.equal(cs.names.length, os.names.length);
    const outcome = (f: Record<string, string>) => (/^\d+$/.test(f.amount ?? '') && f.currency === 'INR' ? f.amount! : null);
    // A genuine osCommerce form: read as CS-Cart its currency is a street address, so not a request.
    const genuine = pairsOf(os.names, (k) => ({ currency: 'INR', amount: '50000' })[k] ?? `v-${k}`);
    assert.equal(ambiguousField('transact', { kit: os, signed: genuine }, outcome), null);
    // The payer typed INR as the street and digits as the city: the CS-Cart reading is another amount.
    const typed = pairsOf(
      os.names,
      (k) => ({ currency: 'INR', amount: '50000', shipToAddress: 'INR', shipToCity: '900' })[k] ?? `v-${k}`,
    );
    assert.equal(ambiguousField('transact', { kit: os, signed: typed }, outcome), 'currency');
    const relabelled = typed.map(([, v], i) => [cs.names[i]!, v] as [string, string]);
    assert.equal(ambiguousField('transact', { kit: cs, signed: relabelled }, outcome), 'txnType');
  });
});
