import { strict as assert } from 'node:assert';
import { isTestInstrument, liveInstrument } from '../../src/domain/live-instrument';

describe('live instruments (domain)', () => {
  it("recognises the sandbox payer's test instruments however they are typed", () => {
    for (const input of [
      { payerVpa: ' Success@Sandbox ' },
      { payerVpa: 'anyone@sandbox' },
      { cardNumber: '4012 0010 3714 1112' },
      { cardNumber: '4000000000000002' },
      { bankCode: ' sbin ' },
      { bankCode: 'FAIL' },
    ])
      assert.equal(isTestInstrument(input), true, JSON.stringify(input));
    for (const input of [{ payerVpa: 'asha@okbank' }, { cardNumber: '4111111111111111' }, { bankCode: 'HDFC' }, {}])
      assert.equal(isTestInstrument(input), false, JSON.stringify(input));
  });

  it('takes a real UPI ID, trimmed and lower-cased', () => {
    assert.deepEqual(liveInstrument({ payerVpa: '  Asha.Rao@OKBank ' }), {
      ok: true,
      instrument: { kind: 'UPI', vpa: 'asha.rao@okbank', bankName: 'NA' },
    });
  });

  it('refuses test instruments, malformed UPI IDs, cards, net banking and nothing, each with what to do', () => {
    const problem = (input: Parameters<typeof liveInstrument>[0]) => {
      const r = liveInstrument(input);
      assert.equal(r.ok, false, JSON.stringify(input));
      return (r as { problem: string }).problem;
    };
    assert.equal(problem({ payerVpa: 'success@sandbox' }), 'test instruments work only in the sandbox');
    assert.equal(problem({ cardNumber: '4012001037141112' }), 'test instruments work only in the sandbox');
    for (const vpa of ['asha', 'a@b', 'asha@', 'asha rao@okbank', 'asha@ok_bank'])
      assert.equal(problem({ payerVpa: vpa }), 'enter a UPI ID such as name@bank', vpa);
    assert.equal(problem({ cardNumber: '4111111111111111' }), "card numbers are entered on your bank's page");
    assert.equal(problem({ bankCode: 'HDFC' }), 'net banking is not available on this page');
    assert.equal(problem({}), 'enter a UPI ID');
  });
});
