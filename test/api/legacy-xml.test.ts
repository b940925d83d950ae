import { strict as assert } from 'node:assert';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { legacyXmlChecksum } from '../../src/domain/legacy-xml';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { formBody, hmac, legacyChecksum, phpSanitize, type Pairs } from '../support/checkout';
import { gatewayWithNewMerchant, type TestGateway } from '../support/gateway';
import { newOrderId, paymentFinished, sandboxPay, storedTransaction } from '../support/payments';
import { refundFinished } from '../support/refunds';

/**
 * Zaakpay's legacy XML APIs as its older kits call them (design.md, Legacy XML APIs): the old PHP
 * kit's status and update pages (test_status_check_input.html through poststatuschecktozaakpay.php,
 * test_mtx_update_input.html through postmtxupdatetozaakpay.php: every field posted, PHP-sanitized,
 * in form order, `submitButton` included, signed `'v1''v2'...`) and the 1.1 PHP kit's refund page
 * (Refund.php: merchantIdentifier, orderId, mode, updateDesired, updateReason[, amount], raw values).
 * The answer is read as PHP's simplexml_load_string reads it: a strict XML parse, every value text.
 */
describe('Legacy XML APIs: POST /checktransaction and POST /updatetransaction', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  before(async () => ({ gw, merchant } = await gatewayWithNewMerchant('Legacy XML')));

  const parser = new XMLParser({ parseTagValue: false, trimValues: false });
  interface XmlAnswer {
    status: number;
    type: string;
    text: string;
    element: Record<string, string>;
    checksum: string;
  }
  /** Posts the form byte for byte as a browser submits the kit's page, and reads the XML strictly. */
  async function post(path: string, body: string, contentType = 'application/x-www-form-urlencoded'): Promise<XmlAnswer> {
    const res = await fetch(`${gw.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
    const text = await res.text();
    // simplexml_load_string refuses anything before the declaration, or a document not well-formed.
    assert.ok(text.startsWith('<?xml version="1.0" encoding="UTF-8"?><zaakpay_response>'), text);
    assert.equal(XMLValidator.validate(text), true, text);
    const doc = parser.parse(text).zaakpay_response;
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      text,
      element: doc.response_element,
      checksum: doc.checksum,
    };
  }
  /** The old PHP kit: Checksum::getAllParams over the sanitized values, then outputForm posts those values. */
  const oldKitForm = (pairs: Pairs) => {
    const sanitized: Pairs = pairs.map(([k, v]) => [k, phpSanitize(k, v)]);
    return formBody([...sanitized, ['checksum', legacyChecksum(merchant.secretKey, sanitized)]]);
  };
  /** The 1.1 kit: getAllParamsCheckandUpdate over the raw values. */
  const kit11Form = (pairs: Pairs) => formBody([...pairs, ['checksum', legacyChecksum(merchant.secretKey, pairs)]]);
  const signedBy = (a: XmlAnswer) =>
    legacyXmlChecksum(merchant.secretKey, {
      orderid: a.element.orderid!,
      responsecode: a.element.responsecode!,
      description: a.element.description!,
    });

  async function paidOrder(payerVpa = 'success@sandbox', amount = 10_000): Promise<string> {
    const orderId = newOrderId('xml');
    await sandboxPay(gw, { merchantIdentifier: merchant.merchantIdentifier, orderId, amount, payerVpa });
    await paymentFinished(gw, merchant.merchantIdentifier, orderId);
    return orderId;
  }
  const statusForm = (orderId: string, mode = '0'): Pairs => [
    ['merchantIdentifier', merchant.merchantIdentifier],
    ['orderId', orderId],
    ['mode', mode],
    ['submitButton', 'Check Status'],
  ];

  it("the old PHP kit's status page: 100 with the order, text/xml, signed 'orderid''responsecode''description'", async () => {
    const orderId = await paidOrder();
    const a = await post('/checktransaction', oldKitForm(statusForm(orderId)));
    assert.equal(a.status, 200);
    assert.match(a.type, /^text\/xml/);
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.deepEqual(Object.keys(a.element), [
      'orderid',
      'responsecode',
      'description',
      'txnid',
      'amount',
      'txnstatus',
      'txndate',
      'paymentmode',
    ]);
    assert.deepEqual(
      { ...a.element, txndate: undefined },
      {
        orderid: orderId,
        responsecode: '100',
        description: 'The transaction was completed successfully. ',
        txnid: t!.txnId,
        amount: '10000',
        txnstatus: '0',
        txndate: undefined,
        paymentmode: 'UPI',
      },
    );
    assert.match(a.element.txndate!, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.equal(a.checksum, signedBy(a));
    // Live merchants' mode "1" reads the same.
    assert.equal((await post('/checktransaction', oldKitForm(statusForm(orderId, '1')))).element.responsecode, '100');
  });

  it('a declined order is 400 and an unknown (or another merchant’s) order 190, as /checkTxn', async () => {
    const declined = await paidOrder('failure@sandbox');
    const d = await post('/checktransaction', oldKitForm(statusForm(declined)));
    assert.deepEqual(
      [d.element.responsecode, d.element.description, d.element.txnstatus],
      ['400', 'The transaction was declined by the issuing bank.', '1'],
    );
    const other = await gw.newMerchant('Other');
    const othersOrder = newOrderId('xml');
    await sandboxPay(gw, { merchantIdentifier: other.merchantIdentifier, orderId: othersOrder, payerVpa: 'success@sandbox' });
    for (const orderId of [newOrderId('none'), othersOrder]) {
      const a = await post('/checktransaction', oldKitForm(statusForm(orderId)));
      assert.equal(a.status, 200);
      assert.deepEqual(a.element, {
        orderid: orderId,
        responsecode: '190',
        description: 'OrderId either not processed or Rejected.',
      });
      assert.equal(a.checksum, signedBy(a));
    }
  });

  it("the old PHP kit's update page: updateDesired 7 (capture) is 185; 14 refunds in full (230), then the status is 230 with txnstatus 3", async () => {
    const orderId = await paidOrder();
    const update = (updateDesired: string): Pairs => [
      ['merchantIdentifier', merchant.merchantIdentifier],
      ['updateDesired', updateDesired],
      ['updateReason', 'test reason'],
      ['orderId', orderId],
      ['mode', '0'],
    ];
    const capture = await post('/updatetransaction', oldKitForm(update('7')));
    assert.deepEqual(capture.element, { orderid: orderId, responsecode: '185', description: 'Update Desired not valid' });
    const full = await post('/updatetransaction', oldKitForm(update('14')));
    assert.equal(full.status, 200);
    assert.deepEqual(full.element, { orderid: orderId, responsecode: '230', description: 'Transaction Refund Initiated' });
    assert.equal(full.checksum, signedBy(full));
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.deepEqual(
      t!.refunds.map((r) => [r.amountPaise, r.updateDesired]),
      [[10_000, '14']],
    );
    await refundFinished(gw, merchant.merchantIdentifier, orderId, t!.refunds[0]!.merchantRefId);
    const after = await post('/checktransaction', oldKitForm(statusForm(orderId)));
    assert.deepEqual([after.element.responsecode, after.element.txnstatus], ['230', '3']);
    const again = await post('/updatetransaction', oldKitForm(update('14')));
    assert.equal(again.element.responsecode, '230', 'the same signed form within a day answers as the first');
    const another = await post(
      '/updatetransaction',
      oldKitForm(update('14').map(([k, v]) => [k, k === 'updateReason' ? 'other reason' : v])),
    );
    assert.equal(another.element.responsecode, '201', 'nothing remains');
    assert.equal((await storedTransaction(gw, merchant.merchantIdentifier, orderId))!.refunds.length, 1);
  });

  it("the 1.1 PHP kit's refund page: partial (amount, 245) then full (230), raw values signed", async () => {
    const orderId = await paidOrder();
    const refund = (updateDesired: string, amount?: string): Pairs => [
      ['merchantIdentifier', merchant.merchantIdentifier],
      ['orderId', orderId],
      ['mode', '0'],
      ['updateDesired', updateDesired],
      ['updateReason', 'Test reason'],
      ...(amount ? [['amount', amount] as [string, string]] : []),
    ];
    const partial = await post('/updatetransaction', kit11Form(refund('22', '2500')));
    assert.deepEqual(partial.element, {
      orderid: orderId,
      responsecode: '245',
      description: 'Transaction Partial Refund Initiated',
    });
    const full = await post('/updatetransaction', kit11Form(refund('14')));
    assert.equal(full.element.responsecode, '230');
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.deepEqual(
      t!.refunds.map((r) => r.amountPaise),
      [2500, 7500],
    );
    assert.equal(t!.refundReservedPaise, 10_000);
  });

  it('a merchantRefId makes the refund idempotent, as /updateTxn', async () => {
    const orderId = await paidOrder();
    const pairs: Pairs = [
      ['merchantIdentifier', merchant.merchantIdentifier],
      ['orderId', orderId],
      ['mode', '1'],
      ['updateDesired', '22'],
      ['updateReason', 'Test reason'],
      ['amount', '1000'],
      ['merchantRefId', 'xml-r-1'],
    ];
    for (let i = 0; i < 2; i++) assert.equal((await post('/updatetransaction', kit11Form(pairs))).element.responsecode, '245');
    const t = await storedTransaction(gw, merchant.merchantIdentifier, orderId);
    assert.deepEqual(
      t!.refunds.map((r) => r.merchantRefId),
      ['xml-r-1'],
    );
  });

  it('authentication: 189 without a checksum, 180 wrong (HTTP 200 as Zaakpay answers, unsigned), 110 no merchant, 111 unknown merchant; nothing refunded', async () => {
    const orderId = await paidOrder();
    const fields = statusForm(orderId);
    const blank = await post('/checktransaction', formBody(fields));
    assert.deepEqual([blank.status, blank.element.responsecode, blank.checksum], [200, '189', '']);
    const wrong = await post('/checktransaction', formBody([...fields, ['checksum', hmac('another secret', "'x'")]]));
    assert.deepEqual([wrong.status, wrong.element.responsecode, wrong.checksum], [200, '180', '']);
    // The checksum covers the order posted: the same values in another order do not match.
    const reordered = formBody([...[...fields].reverse(), ['checksum', legacyChecksum(merchant.secretKey, fields)]]);
    assert.equal((await post('/checktransaction', reordered)).element.responsecode, '180');
    const updateWrong = await post(
      '/updatetransaction',
      formBody([
        ['merchantIdentifier', merchant.merchantIdentifier],
        ['orderId', orderId],
        ['updateDesired', '14'],
        ['updateReason', 'test reason'],
        ['checksum', 'a'.repeat(64)],
      ]),
    );
    assert.deepEqual(
      [updateWrong.status, updateWrong.element.responsecode, updateWrong.element.description],
      [200, '180', 'Checksum does not match'],
    );
    const noMerchant = await post('/checktransaction', formBody([['orderId', orderId]]));
    assert.deepEqual([noMerchant.status, noMerchant.element.responsecode], [200, '110']);
    const stranger = await post(
      '/checktransaction',
      oldKitForm([
        ['merchantIdentifier', 'f'.repeat(32)],
        ['orderId', orderId],
      ]),
    );
    assert.deepEqual([stranger.status, stranger.element.responsecode], [200, '111']);
    assert.deepEqual((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.refunds, []);
  });

  it('bad input answers XML with the right status, never a 500, and refunds nothing', async () => {
    const orderId = await paidOrder();
    // Zaakpay's APIs answer a coded refusal with HTTP 200 and the code in the XML.
    const cases: [string, string, number, string][] = [
      ['a field twice', 'orderId=a&orderId=b', 200, '2005'],
      ['not UTF-8', 'orderId=%FF', 200, '2005'],
      [
        'no orderId (no kit posts this form)',
        kit11Form([
          ['merchantIdentifier', merchant.merchantIdentifier],
          ['mode', '0'],
        ]),
        200,
        '109',
      ],
      [
        'an invalid orderId in the JSP kit form',
        kit11Form([
          ['merchantIdentifier', merchant.merchantIdentifier],
          ['orderId', 'bad id!'],
          ['mode', '0'],
        ]),
        200,
        '2002',
      ],
      ['mode 2', kit11Form(statusForm(orderId, '2')), 200, '2002'],
    ];
    for (const [what, body, status, code] of cases) {
      const a = await post('/checktransaction', body);
      assert.deepEqual([a.status, a.element.responsecode], [status, code], `${what}: ${a.text}`);
    }
    const json = await post('/checktransaction', '{}', 'application/json');
    assert.deepEqual([json.status, json.element.responsecode], [415, '2003']);
    // Refused before the operation takes it (another method): the same XML, unsigned.
    const get = await fetch(`${gw.baseUrl}/checktransaction`);
    assert.equal(get.status, 405);
    assert.match(get.headers.get('content-type') ?? '', /^text\/xml/);
    const answer = parser.parse(await get.text()).zaakpay_response;
    assert.equal(answer.response_element.responsecode, '2041');
    assert.equal(answer.checksum, '', 'nothing unauthenticated is signed');
    const noAmount = await post(
      '/updatetransaction',
      kit11Form([
        ['merchantIdentifier', merchant.merchantIdentifier],
        ['orderId', orderId],
        ['mode', '0'],
        ['updateDesired', '22'],
        ['updateReason', 'Test reason'],
      ]),
    );
    assert.deepEqual([noAmount.status, noAmount.element.responsecode], [200, '2002']);
    assert.match(noAmount.element.description, /amount/);
    const badAmount = await post(
      '/updatetransaction',
      kit11Form([
        ['merchantIdentifier', merchant.merchantIdentifier],
        ['orderId', orderId],
        ['mode', '0'],
        ['updateDesired', '22'],
        ['updateReason', 'Test reason'],
        ['amount', '-5'],
      ]),
    );
    assert.deepEqual([badAmount.status, badAmount.element.responsecode], [200, '2002']);
    assert.deepEqual((await storedTransaction(gw, merchant.merchantIdentifier, orderId))?.refunds, []);
  });
});
