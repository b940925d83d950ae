import { strict as assert } from 'node:assert';
import { sandboxBankDecision, sandboxInstrument } from '../../src/domain/sandbox-bank';
import type { PaymentInstrument } from '../../src/domain/instrument';

const cardId = (pan: string) => `id-of-${pan.slice(-4)}`;
const instrument = (input: Parameters<typeof sandboxInstrument>[0]): PaymentInstrument => {
  const r = sandboxInstrument(input, cardId);
  assert.ok(r.ok, r.ok ? '' : r.problem);
  return r.instrument;
};

describe('sandbox payer and bank', () => {
  it('UPI: success@sandbox pays, failure@sandbox declines, noanswer@sandbox never answers', () => {
    assert.deepEqual(sandboxBankDecision(instrument({ payerVpa: 'success@sandbox' }), 10_000), {
      answered: true,
      approved: true,
      response: 'success',
    });
    assert.deepEqual(sandboxBankDecision(instrument({ payerVpa: 'failure@sandbox' }), 10_000), {
      answered: true,
      approved: false,
      response: 'declinedByBank',
    });
    assert.deepEqual(sandboxBankDecision(instrument({ payerVpa: 'noanswer@sandbox' }), 10_000), { answered: false });
  });

  it('cards: the success card pays, the decline card is declined; only the masked number is kept', () => {
    const good = instrument({ cardNumber: '4012001037141112' });
    assert.deepEqual(good, {
      kind: 'CARD',
      cardToken: '401200XXXXXX1112',
      cardId: 'id-of-1112',
      brand: 'VISA',
      cardType: 'CREDIT',
      bankName: 'HDFC Bank',
    });
    assert.equal(JSON.stringify(good).includes('4012001037141112'), false);
    assert.equal(
      sandboxBankDecision(good, 10_000).answered && (sandboxBankDecision(good, 10_000) as { approved: boolean }).approved,
      true,
    );
    assert.deepEqual(sandboxBankDecision(instrument({ cardNumber: '4000000000000002' }), 10_000), {
      answered: true,
      approved: false,
      response: 'declinedByBank',
    });
  });

  it('net banking: SBIN pays, FAIL declines (codes are case-insensitive)', () => {
    assert.deepEqual(sandboxBankDecision(instrument({ bankCode: 'sbin' }), 10_000), {
      answered: true,
      approved: true,
      response: 'success',
    });
    assert.deepEqual(sandboxBankDecision(instrument({ bankCode: 'FAIL' }), 10_000), {
      answered: true,
      approved: false,
      response: 'declinedByBank',
    });
  });

  it('declines anything below 9 rupees with 1021, whatever the instrument', () => {
    for (const i of [{ payerVpa: 'success@sandbox' }, { payerVpa: 'noanswer@sandbox' }, { bankCode: 'SBIN' }]) {
      assert.deepEqual(sandboxBankDecision(instrument(i), 899), { answered: true, approved: false, response: 'belowMinimum' });
    }
    assert.equal((sandboxBankDecision(instrument({ payerVpa: 'success@sandbox' }), 900) as { approved: boolean }).approved, true);
  });

  it('names the test instruments when given an unknown one', () => {
    const vpa = sandboxInstrument({ payerVpa: 'someone@okbank' }, cardId);
    assert.ok(!vpa.ok && vpa.problem.includes('success@sandbox'));
    const card = sandboxInstrument({ cardNumber: '4111111111111111' }, cardId);
    assert.ok(!card.ok && card.problem.includes('4012001037141112'));
    const none = sandboxInstrument({}, cardId);
    assert.ok(!none.ok && none.problem.includes('exactly one'));
  });
});
