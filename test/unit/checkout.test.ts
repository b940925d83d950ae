import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { checkoutChoices, checkoutPaymentMode, checkoutToken } from '../../src/domain/checkout';
import { expressChecksumTexts, legacyChecksumTexts, phpSanitized, signedLegacyFields } from '../../src/domain/checkout-checksum';
import { checkoutReturnFields, verifiedReturnKind } from '../../src/domain/checkout-return';
import { parseLooseObject } from '../../src/domain/loose-json';
import type { Transaction } from '../../src/domain/transaction';

const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

describe('checkout: request checksums, the signed return, lenient data', () => {
  it("PHP sanitizing removes the kits' characters, returnUrl keeping # = : &", () => {
    assert.equal(phpSanitized('productDescription', `Tea, (large) & "cake": 5%!`), 'Tea large  cake 5');
    assert.equal(phpSanitized('returnUrl', 'https://shop.example/r.php?a=1&b=(2)#top'), 'https://shop.example/r.php?a=1&b=2#top');
  });

  it('express texts: the fixed order over non-empty fields, raw and sanitized, and all fields sorted', () => {
    const pairs: [string, string][] = [
      ['orderId', 'o-1'],
      ['merchantIdentifier', 'm1'],
      ['buyerEmail', ''],
      ['amount', '100'],
      ['productDescription', 'Tea, hot'],
      ['udf1', 'x'],
      ['checksum', 'ignored'],
    ];
    const [fixed, sanitized, sorted] = expressChecksumTexts(pairs);
    assert.equal(fixed, 'amount=100&merchantIdentifier=m1&orderId=o-1&productDescription=Tea, hot&');
    assert.equal(sanitized, 'amount=100&merchantIdentifier=m1&orderId=o-1&productDescription=Tea hot&');
    assert.equal(sorted, 'amount=100&merchantIdentifier=m1&orderId=o-1&productDescription=Tea, hot&udf1=x&');
  });

  it('legacy texts: every value but the checksum, quoted, in the order posted', () => {
    const pairs: [string, string][] = [
      ['orderId', 'o-1'],
      ['checksum', 'c'],
      ['buyerEmail', ''],
      ['productDescription', 'a;b'],
    ];
    assert.deepEqual(legacyChecksumTexts(pairs), ["'o-1''''a;b'", "'o-1''''ab'"]);
  });

  it("legacy texts: over raw values only when none holds a single quote ('A''B' is also the one value A''B)", () => {
    const signed: [string, string][] = [
      ['merchantIdentifier', 'm1'],
      ['currency', 'INR'],
      ['amount', '50000000'],
      ['shipToCity', '900'],
    ];
    const checksum = hmac('k', "'m1''INR''50000000''900'");
    assert.deepEqual(signedLegacyFields(['k'], signed, checksum), { signed });
    // The payer merges two signed values into one, which frees `amount` for the 900 they typed.
    const merged: [string, string][] = [
      ['merchantIdentifier', 'm1'],
      ['currency', "INR''50000000"],
      ['amount', '900'],
    ];
    assert.equal(hmac('k', merged.map(([, v]) => `'${v}'`).join('')), checksum, 'the same text');
    assert.deepEqual(legacyChecksumTexts(merged), ["'m1''INR50000000''900'"], 'the sanitized text only');
    assert.deepEqual(signedLegacyFields(['k'], merged, checksum), { quoted: 'currency' });
    // Signed over the sanitized values (which hold no quote), a quote the payer adds changes nothing.
    const withQuote: [string, string][] = signed.map(([k, v]) => [k, k === 'shipToCity' ? "9'00" : v]);
    assert.deepEqual(signedLegacyFields(['k'], withQuote, checksum), {
      signed: withQuote.map(([k, v]) => [k, v.replace("'", '')]),
    });
  });

  it('reads JSON and the unquoted form of data, nothing else', () => {
    assert.deepEqual(parseLooseObject('{"a":"1","b":{"c":"2"}}'), { a: '1', b: { c: '2' } });
    assert.deepEqual(parseLooseObject('{merchantIdentifier:m1,mode:0,orderDetail:{orderId:ZP-1}}'), {
      merchantIdentifier: 'm1',
      mode: '0',
      orderDetail: { orderId: 'ZP-1' },
    });
    assert.deepEqual(parseLooseObject(' { a : "x,y" , b:{} } '), { a: 'x,y', b: {} });
    for (const bad of ['', '[]', '{', '{a:1', '{a:1}}', '{:1}', '{a:1,a:2}', 'x', `${'{a:'.repeat(20)}1${'}'.repeat(20)}`]) {
      assert.equal(parseLooseObject(bad), null, bad);
    }
    const proto = parseLooseObject('{__proto__:{polluted:yes}}');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.ok(proto && Object.hasOwn(proto, '__proto__'));
  });

  it('payment modes in any case, the express aliases, and the choices each offers', () => {
    assert.equal(checkoutPaymentMode('upiqr'), 'UPIQR');
    assert.equal(checkoutPaymentMode('Credit'), 'CARD');
    assert.equal(checkoutPaymentMode('nb'), 'NETBANKING');
    assert.equal(checkoutPaymentMode('cheque'), null);
    assert.deepEqual(checkoutChoices('UPIAPP'), ['upiApp']);
    assert.deepEqual(checkoutChoices(null), ['upiId', 'upiApp', 'card', 'netbanking']);
  });

  it('the page token is the same for an order and unguessable without the master key', () => {
    const t = checkoutToken('ab'.repeat(32), 'm1', 'o-1');
    assert.match(t, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(checkoutToken('ab'.repeat(32), 'm1', 'o-1'), t);
    assert.notEqual(checkoutToken('cd'.repeat(32), 'm1', 'o-1'), t);
  });

  describe('the return', () => {
    const at = new Date('2026-11-23T03:30:00Z');
    const order: Transaction = {
      txnId: 'TXN1',
      merchantIdentifier: 'm1',
      orderId: 'o-1',
      amountPaise: 25050,
      productDescription: 'Tea & "cake"',
      buyerName: null,
      buyerEmail: null,
      ipAddress: null,
      instrument: { kind: 'UPI', vpa: 'success@sandbox', bankName: 'Sandbox UPI Bank' },
      status: 'Failure',
      responseCode: '1023',
      responseDescription: 'No response from the bank; transaction marked failed by the service.',
      bankRefNum: null,
      authCode: null,
      markedFailedByService: true,
      createdAt: at,
      updatedAt: at,
      completedAt: at,
      successAt: null,
      refunds: [],
      version: 1,
    };

    it('V8: every listed field in order, NA without data, signed key=value&', () => {
      const fields = checkoutReturnFields('V8', order, 's3cret');
      const m = new Map(fields);
      assert.equal(fields.length, 21);
      assert.equal(m.get('productDescription'), 'Tea & "cake"');
      assert.equal(m.get('product1Description'), 'NA');
      assert.equal(m.get('pgTransTime'), '11/23/2026 09:00:00');
      const text = fields
        .slice(0, -1)
        .map(([k, v]) => `${k}=${v}&`)
        .join('');
      assert.equal(m.get('checksum'), hmac('s3cret', text));
      assert.equal(verifiedReturnKind('s3cret', fields), 'V8');
      assert.equal(verifiedReturnKind('other', fields), null);
    });

    it('legacy: orderId, responseCode, responseDescription (v=2: amount first), free of the PHP kits characters, quoted values signed', () => {
      const v2 = checkoutReturnFields('transactV2', order, 's3cret');
      assert.deepEqual(
        v2.map(([k]) => k),
        ['amount', 'orderId', 'responseCode', 'responseDescription', 'checksum'],
      );
      const description = new Map(v2).get('responseDescription')!;
      // The stored reason (1023, a silent bank) goes out as Zaakpay's 183, its comma removed.
      assert.equal(description, 'Unfortunately the transaction has failed.');
      assert.equal(new Map(v2).get('responseCode'), '183');
      assert.equal(new Map(v2).get('checksum'), hmac('s3cret', `'25050''o-1''183''${description}'`));
      for (const entry of ['transact', 'transactV3'] as const) {
        const plain = checkoutReturnFields(entry, order, 's3cret');
        assert.deepEqual(
          plain.map(([k]) => k),
          ['orderId', 'responseCode', 'responseDescription', 'checksum'],
          entry,
        );
        assert.equal(new Map(plain).get('checksum'), hmac('s3cret', `'o-1''183''${description}'`), entry);
        assert.equal(verifiedReturnKind('s3cret', plain), 'legacy');
      }
      assert.equal(verifiedReturnKind('s3cret', v2), 'legacy');
    });
  });
});
