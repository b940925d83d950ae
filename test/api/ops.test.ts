import { strict as assert } from 'node:assert';
import { constants, createHash, createHmac, createPublicKey, privateDecrypt, publicEncrypt } from 'node:crypto';
import { sharedGateway, type TestGateway } from '../support/gateway';
import { request, type HttpResult } from '../support/http';

const HEX32 = /^[0-9a-f]{32}$/;
const CREDENTIAL_KEYS = ['apiKey', 'encryptionKeyId', 'merchantIdentifier', 'publicKeyPem', 'secretKey'];

/**
 * PKCS#1 v1.5 decryption (RFC 8017, 7.2.2) done by hand on top of the raw RSA operation. Node 20.11.1+
 * refuses `privateDecrypt` with RSA_PKCS1_PADDING (CVE-2023-46809, Marvin) unless started with
 * --security-revert, so the test unpads the block itself: 0x00 0x02, at least 8 non-zero bytes, 0x00, message.
 */
function decryptPkcs1v15(privateKeyPem: string, ciphertext: Buffer): Buffer {
  const block = privateDecrypt({ key: privateKeyPem, padding: constants.RSA_NO_PADDING }, ciphertext);
  assert.equal(block[0], 0x00, 'PKCS#1 v1.5 block starts 0x00');
  assert.equal(block[1], 0x02, 'PKCS#1 v1.5 encryption block type 2');
  const separator = block.indexOf(0x00, 2);
  assert.ok(separator >= 10, 'at least 8 bytes of non-zero padding');
  return block.subarray(separator + 1);
}

describe('Operator API: POST /ops/v1/merchants', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  let url: string;
  let auth: Record<string, string>;

  before(async () => {
    gw = await sharedGateway();
    url = `${gw.baseUrl}/ops/v1/merchants`;
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });

  const merchantsCollection = () => gw.rt.store.db.collection<{ _id: string }>('merchants');
  const countMerchants = () => merchantsCollection().countDocuments({});

  async function provision(body: object = { name: 'Acme Stores', webhookUrl: 'https://acme.example/hook' }) {
    const res = await request(url, { body, headers: auth });
    assert.equal(res.status, 201, res.text);
    return res;
  }

  it('provisions a merchant: 201 and the five credentials in the success envelope', async () => {
    const before = await countMerchants();
    const res = await provision();
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.json.success, true);
    assert.deepEqual(Object.keys(res.json).sort(), ['data', 'success']);
    const data = res.json.data;
    assert.deepEqual(Object.keys(data).sort(), CREDENTIAL_KEYS);
    assert.match(data.merchantIdentifier, HEX32);
    assert.match(data.secretKey, HEX32);
    assert.notEqual(data.merchantIdentifier, data.secretKey);
    assert.equal(typeof data.apiKey, 'string');
    assert.ok(data.apiKey.length >= 32, 'the API key carries enough randomness to be looked up by plain hash');
    assert.equal(typeof data.encryptionKeyId, 'string');
    assert.ok(data.encryptionKeyId.length > 0);
    assert.equal(await countMerchants(), before + 1);

    // A second merchant gets entirely fresh credentials.
    const other = (await provision({ name: 'Other Stores' })).json.data;
    for (const key of ['merchantIdentifier', 'secretKey', 'apiKey', 'encryptionKeyId', 'publicKeyPem']) {
      assert.notEqual(other[key], data[key], key);
    }
  });

  it('stores name and webhook URL exactly as given, with the public key under its key id', async () => {
    for (const name of ['  Acme Stores  ', '\n' + 'a'.repeat(100), '\t']) {
      const refused = await request(url, { body: { name }, headers: auth });
      assert.equal(refused.status, 400, 'surrounding whitespace is refused, never silently trimmed');
    }
    const { merchantIdentifier, encryptionKeyId, publicKeyPem } = (
      await provision({ name: 'Acme Stores', webhookUrl: 'https://acme.example/hook' })
    ).json.data;
    const stored = await gw.rt.merchants.findById(merchantIdentifier);
    assert.ok(stored);
    assert.equal(stored.name, 'Acme Stores');
    assert.equal(stored.webhookUrl, 'https://acme.example/hook');
    assert.deepEqual(stored.encryptionKeys, [{ keyId: encryptionKeyId, publicKeyPem, createdAt: stored.createdAt }]);

    const withoutHook = (await provision({ name: 'No Hook' })).json.data;
    assert.equal((await gw.rt.merchants.findById(withoutHook.merchantIdentifier))?.webhookUrl, null);
  });

  it('returns a 2048-bit RSA public key whose private half the gateway keeps (OAEP and PKCS#1 v1.5)', async () => {
    const { merchantIdentifier, encryptionKeyId, publicKeyPem } = (await provision()).json.data;
    assert.match(publicKeyPem, /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
    const publicKey = createPublicKey(publicKeyPem);
    assert.equal(publicKey.asymmetricKeyType, 'rsa');
    assert.equal(publicKey.asymmetricKeyDetails?.modulusLength, 2048);

    const privateKeyPem = await gw.rt.merchants.privateKeyPem(merchantIdentifier, encryptionKeyId);
    assert.ok(privateKeyPem, 'the gateway holds the private key under the returned key id');
    assert.equal(await gw.rt.merchants.privateKeyPem(merchantIdentifier, 'ek_0000000000000000'), null);

    const payerVpa = 'success@sandbox';
    // OAEP, as a merchant would send it: base64 ciphertext.
    const oaep = publicEncrypt({ key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING }, Buffer.from(payerVpa)).toString(
      'base64',
    );
    const oaepPlain = privateDecrypt(
      { key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING },
      Buffer.from(oaep, 'base64'),
    );
    assert.equal(oaepPlain.toString('utf8'), payerVpa);
    // PKCS#1 v1.5.
    const pkcs1 = publicEncrypt({ key: publicKeyPem, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(payerVpa)).toString(
      'base64',
    );
    assert.equal(decryptPkcs1v15(privateKeyPem, Buffer.from(pkcs1, 'base64')).toString('utf8'), payerVpa);
  });

  it('keeps no secret in plaintext at rest: secret and private key encrypted, API key only as its SHA-256', async () => {
    const creds = (await provision()).json.data;
    const raw = await merchantsCollection().findOne({ _id: creds.merchantIdentifier });
    assert.ok(raw);
    const privateKeyPem = (await gw.rt.merchants.privateKeyPem(creds.merchantIdentifier, creds.encryptionKeyId))!;
    const privateBody = privateKeyPem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    const privateLines = privateKeyPem.split('\n').filter((l) => l.length > 0 && !l.startsWith('-----'));

    const json = JSON.stringify(raw);
    // Every string in the document, unescaped, so a PEM's newlines cannot hide it from the search.
    const strings: string[] = [];
    const collect = (v: unknown): void => {
      if (typeof v === 'string') strings.push(v);
      else if (Array.isArray(v)) v.forEach(collect);
      else if (v && typeof v === 'object' && !(v instanceof Date)) Object.values(v).forEach(collect);
    };
    collect(raw);
    const haystacks = [json, json.toLowerCase(), strings.join('\n'), strings.join('').replace(/\s+/g, '')];

    for (const h of haystacks) {
      assert.equal(h.includes(creds.secretKey), false, 'secret key in plaintext');
      assert.equal(h.includes(creds.apiKey), false, 'API key in plaintext');
      assert.equal(h.includes(privateBody), false, 'private key in plaintext');
      assert.equal(h.includes('PRIVATE KEY'), false, 'a PEM private key in plaintext');
      for (const line of privateLines) assert.equal(h.includes(line), false, 'a line of the private key in plaintext');
    }
    const apiKeyHash = createHash('sha256').update(creds.apiKey, 'utf8').digest('hex');
    assert.ok(json.includes(apiKeyHash), 'the API key is kept as its SHA-256 hash');
    assert.equal((raw as Record<string, unknown>).apiKeyHash, apiKeyHash);
    // And the hash finds the merchant, which decrypts back to the issued secret.
    const found = await gw.rt.merchants.findByApiKeyHash(apiKeyHash);
    assert.equal(found?.merchantIdentifier, creds.merchantIdentifier);
    assert.equal(found?.secretKey, creds.secretKey);
  });

  it('the new merchant can call the status API with its secret at once', async () => {
    const { merchantIdentifier, secretKey } = (await provision()).json.data;
    const body = JSON.stringify({ merchantIdentifier, orderId: 'never-placed-1', version: 13 });
    const checksum = createHmac('sha256', secretKey).update(body).digest('hex');
    const res = await request(`${gw.baseUrl}/api/payments/v1/status`, { body, headers: { checksum } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.status, false);
    assert.equal(res.json.message.code, 2020);
    assert.equal(res.json.data.merchantIdentifier, merchantIdentifier);
    // Signed with some other secret, the same body is refused.
    const forged = createHmac('sha256', 'f'.repeat(32)).update(body).digest('hex');
    const refused = await request(`${gw.baseUrl}/api/payments/v1/status`, { body, headers: { checksum: forged } });
    assert.equal(refused.status, 401);
  });

  it('accepts a body of exactly MAX_BODY_BYTES (65536)', async () => {
    assert.equal(gw.rt.config.http.maxBodyBytes, 65536);
    const body = padTo(65536);
    assert.equal(Buffer.byteLength(body), 65536);
    const res = await request(url, { body, headers: auth });
    assert.equal(res.status, 201, res.text);
  });

  /** `{"name":"Padded"    ...}` of exactly `bytes` bytes: padded with JSON whitespace (unknown fields are refused here). */
  function padTo(bytes: number): string {
    const body = JSON.stringify({ name: 'Padded' });
    return `${body.slice(0, -1)}${' '.repeat(bytes - Buffer.byteLength(body))}}`;
  }

  describe('bad input: right status and success envelope, never a 500, no merchant created', () => {
    let countBefore: number;
    beforeEach(async () => {
      countBefore = await countMerchants();
    });
    afterEach(async () => {
      assert.equal(await countMerchants(), countBefore, 'no merchant document may be created');
    });

    const valid = { name: 'Acme', webhookUrl: 'https://acme.example/hook' };
    const expectError = (res: HttpResult, status: number, code: string) => {
      assert.notEqual(res.status, 500, res.text);
      assert.equal(res.status, status, res.text);
      assert.deepEqual(Object.keys(res.json ?? {}).sort(), ['message', 'success'], res.text);
      assert.equal(res.json.success, false);
      assert.equal(res.json.message.code, code);
      assert.equal(typeof res.json.message.text, 'string');
      assert.ok(res.json.message.text.length > 0);
      assert.equal('data' in res.json, false, 'no credentials in an error');
      assert.equal('status' in res.json, false, 'success envelope, not the status envelope');
    };

    it('missing operator token: 401 2014', async () => {
      expectError(await request(url, { body: valid }), 401, '2014');
    });

    it('wrong operator token: 401 2014', async () => {
      expectError(
        await request(url, { body: valid, headers: { authorization: 'Bearer not-the-operator-token-0123456789' } }),
        401,
        '2014',
      );
      // The right token with something appended, or only a prefix of it, is just as wrong.
      const token = gw.rt.config.secrets.opsToken;
      expectError(await request(url, { body: valid, headers: { authorization: `Bearer ${token}x` } }), 401, '2014');
      expectError(await request(url, { body: valid, headers: { authorization: `Bearer ${token.slice(0, -1)}` } }), 401, '2014');
      expectError(await request(url, { body: valid, headers: { authorization: 'Bearer ' } }), 401, '2014');
    });

    it('Basic scheme: 401 2014, even carrying the right token', async () => {
      const token = gw.rt.config.secrets.opsToken;
      expectError(await request(url, { body: valid, headers: { authorization: `Basic ${token}` } }), 401, '2014');
      const basic = Buffer.from(`operator:${token}`).toString('base64');
      expectError(await request(url, { body: valid, headers: { authorization: `Basic ${basic}` } }), 401, '2014');
      expectError(await request(url, { body: valid, headers: { authorization: token } }), 401, '2014');
    });

    it('malformed JSON: 400 2001', async () => {
      expectError(await request(url, { body: '{"name": "Acme"', headers: auth }), 400, '2001');
      expectError(await request(url, { body: '', headers: auth }), 400, '2001');
    });

    it('missing name: 400 2002 naming the field', async () => {
      const res = await request(url, { body: { webhookUrl: 'https://acme.example/hook' }, headers: auth });
      expectError(res, 400, '2002');
      assert.match(res.json.message.text, /name/);
    });

    it('empty name (also after trimming): 400 2002', async () => {
      expectError(await request(url, { body: { name: '' }, headers: auth }), 400, '2002');
      expectError(await request(url, { body: { name: '   ' }, headers: auth }), 400, '2002');
    });

    it('name of the wrong type: 400 2002', async () => {
      for (const name of [42, true, null, ['Acme'], { first: 'Acme' }]) {
        expectError(await request(url, { body: { name }, headers: auth }), 400, '2002');
      }
    });

    it('a body that is not an object: 400 2002', async () => {
      for (const body of ['[]', 'null', '"Acme"', '42']) expectError(await request(url, { body, headers: auth }), 400, '2002');
    });

    it('webhookUrl that is not http(s): 400 2002 naming the field', async () => {
      const res = await request(url, { body: { name: 'Acme', webhookUrl: 'ftp://x' }, headers: auth });
      expectError(res, 400, '2002');
      assert.match(res.json.message.text, /webhookUrl/);
      expectError(await request(url, { body: { name: 'Acme', webhookUrl: 'javascript:alert(1)' }, headers: auth }), 400, '2002');
    });

    it('webhookUrl that is not a URL: 400 2002', async () => {
      for (const webhookUrl of ['not a url', 'acme.example/hook', '', 42]) {
        const res = await request(url, { body: { name: 'Acme', webhookUrl }, headers: auth });
        expectError(res, 400, '2002');
        assert.match(res.json.message.text, /webhookUrl/);
      }
    });

    it('wrong content type: 415 2003', async () => {
      const body = JSON.stringify(valid);
      expectError(await request(url, { body, headers: { ...auth, 'content-type': 'text/plain' } }), 415, '2003');
      expectError(
        await request(url, { body: 'name=Acme', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' } }),
        415,
        '2003',
      );
    });

    it('body over 65536 bytes: 413 2004', async () => {
      const oneOver = padTo(65537);
      assert.equal(Buffer.byteLength(oneOver), 65537);
      expectError(await request(url, { body: oneOver, headers: auth }), 413, '2004');
      expectError(await request(url, { body: padTo(200_000), headers: auth }), 413, '2004');
    });
  });
});
