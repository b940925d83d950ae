import { strict as assert } from 'node:assert';
import { parseJsonBody } from '../../src/api/middleware/body';
import { duplicateJsonKey } from '../../src/api/middleware/json-duplicates';
import { ApiError } from '../../src/domain/api-errors';

describe('strict JSON bodies', () => {
  it('finds a key given twice in one object, at any depth, after unescaping', () => {
    assert.equal(duplicateJsonKey('{"orderId":"a","orderId":"b"}'), 'orderId');
    assert.equal(duplicateJsonKey('{"a":{"x":1, "x" :2}}'), 'x');
    assert.equal(duplicateJsonKey('{"a":[{"x":1},{"x":2}]}'), null, 'the same key in sibling objects is fine');
    assert.equal(duplicateJsonKey('{"p\\u0061yerVpa":1,"payerVpa":2}'), 'payerVpa');
    assert.equal(duplicateJsonKey('{"a":"\\"a\\":1","b":["a","a"]}'), null, 'strings that look like keys are values');
    assert.equal(duplicateJsonKey('{"a":"x\\\\","a2":1}'), null);
    assert.equal(duplicateJsonKey('[1,"a",{"a":1}]'), null);
  });

  const fails = (raw: Buffer | string, pattern: RegExp) =>
    assert.throws(
      () => parseJsonBody(Buffer.isBuffer(raw) ? raw : Buffer.from(raw)),
      (e: unknown) => e instanceof ApiError && e.kind === 'malformedJson' && pattern.test(e.message),
    );

  it('refuses invalid UTF-8, duplicate keys and bad syntax without echoing the body', () => {
    fails(Buffer.concat([Buffer.from('{"a":"ab'), Buffer.from([0xff, 0xfe]), Buffer.from('cd"}')]), /not valid UTF-8/);
    fails('{"orderId":"a","orderId":"b"}', /given twice/);
    fails('{"secretish":tru}', /^(?!.*secretish)/);
    assert.deepEqual(parseJsonBody(Buffer.from('{"a":"₹ 1"}')), { a: '₹ 1' });
  });
});
