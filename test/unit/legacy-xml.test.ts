import { strict as assert } from 'node:assert';
import { createHmac } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { legacyXml } from '../../src/domain/legacy-xml';

describe('The legacy XML answer (/checktransaction, /updatetransaction)', () => {
  const parse = (xml: string) => new XMLParser({ parseTagValue: false, trimValues: false }).parse(xml).zaakpay_response;

  it('escapes every value so a strict parser (as PHP simplexml) reads it back exactly, and signs the raw values', () => {
    const answer = { orderid: 'a&b<c>"d\'', responsecode: '183', description: 'Unfortunately, the transaction has failed.' };
    const xml = legacyXml(answer, 'secret');
    assert.equal(XMLValidator.validate(xml), true);
    const doc = parse(xml);
    assert.deepEqual(doc.response_element, answer);
    const expected = createHmac('sha256', 'secret')
      .update(`'a&b<c>"d'''183''Unfortunately, the transaction has failed.'`)
      .digest('hex');
    assert.equal(doc.checksum, expected);
  });

  it('drops characters XML 1.0 cannot carry (before signing), and leaves the checksum empty without a key', () => {
    const signed = parse(legacyXml({ orderid: 'x\u0001y', responsecode: '2002', description: 'd' }, 'k'));
    assert.equal(signed.checksum, createHmac('sha256', 'k').update(`'xy''2002''d'`).digest('hex'));
    const xml = legacyXml({ orderid: 'x\u0001y', responsecode: '180', description: 'd' }, null);
    assert.equal(XMLValidator.validate(xml), true);
    const doc = parse(xml);
    assert.equal(doc.response_element.orderid, 'xy');
    assert.equal(doc.checksum, '');
  });
});
