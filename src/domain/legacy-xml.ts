import { hmacSha256Hex } from './checksum';

/**
 * Zaakpay's legacy XML answer (`POST /checktransaction`, `POST /updatetransaction`; design.md,
 * Legacy XML APIs), as its older kits and PHP `simplexml` clients read it. The shape is fixed and
 * small, so it is written here with every value escaped rather than through an XML library.
 */
export interface LegacyXmlAnswer {
  orderid: string;
  responsecode: string;
  description: string;
  /** A status read that found its order. */
  txn?: { txnid: string; amount: string; txnstatus: string; txndate: string; paymentmode: string };
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// XML 1.0 allows no control characters but tab, line feed and carriage return, not even escaped.
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const xmlChars = (v: string) => v.replace(NOT_XML_CHAR, '');
const text = (v: string) => v.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/** The answer's checksum: HMAC-SHA256 of `'orderid''responsecode''description'` with the secret key. */
export function legacyXmlChecksum(secretKey: string, a: Pick<LegacyXmlAnswer, 'orderid' | 'responsecode' | 'description'>) {
  return hmacSha256Hex(secretKey, `'${a.orderid}''${a.responsecode}''${a.description}'`);
}

/**
 * The XML document. `secretKey` is the authenticated merchant's: an answer to a request that is
 * not (yet) authenticated carries an empty checksum, so nobody can have chosen text signed.
 */
export function legacyXml(answer: LegacyXmlAnswer, secretKey: string | null): string {
  // What the document can carry is what is signed, so a client checks the values it reads.
  const a = { ...answer, orderid: xmlChars(answer.orderid), description: xmlChars(answer.description) };
  const element = (name: string, value: string) => `<${name}>${text(xmlChars(value))}</${name}>`;
  const fields = [
    element('orderid', a.orderid),
    element('responsecode', a.responsecode),
    element('description', a.description),
    ...(a.txn
      ? [
          element('txnid', a.txn.txnid),
          element('amount', a.txn.amount),
          element('txnstatus', a.txn.txnstatus),
          element('txndate', a.txn.txndate),
          element('paymentmode', a.txn.paymentmode),
        ]
      : []),
  ];
  const checksum = secretKey ? legacyXmlChecksum(secretKey, a) : '';
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<zaakpay_response><response_element>${fields.join('')}</response_element>` +
    `${element('checksum', checksum)}</zaakpay_response>`
  );
}
