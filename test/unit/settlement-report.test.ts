import { strict as assert } from 'node:assert';
import { maskAccountNumber } from '../../src/domain/settlement-account';
import {
  parseUtrDate,
  settlementReportChecksumString,
  toReportLine,
  toSignedReportLine,
} from '../../src/domain/settlement-report';
import type { SettlementLine } from '../../src/domain/settlement';
import { splitRequestSchema, splitShares } from '../../src/domain/split';
import { settlementAccountSchema } from '../../src/api/schemas/settlement-merchant';

describe('Settlement report and split rules (pure)', () => {
  it('parseUtrDate: dd-MM-yyyy real dates only', () => {
    assert.equal(parseUtrDate('06-03-2019'), '2019-03-06');
    assert.equal(parseUtrDate('29-02-2028'), '2028-02-29');
    for (const bad of ['29-02-2026', '6-03-2019', '2019-03-06', '06/03/2019', '32-01-2026', '01-00-2026', ' 06-03-2019', ''])
      assert.equal(parseUtrDate(bad), null, bad);
  });

  it("the checksum string is Zaakpay's: merchantIdentifier,utr_date", () => {
    assert.equal(
      settlementReportChecksumString('b19e8f103bce406cbd3476431b6b7973', '06-03-2019'),
      'b19e8f103bce406cbd3476431b6b7973,06-03-2019',
    );
  });

  it('account: IFSC and account number validated, number masked to its last four', () => {
    const ok = { ifsc: 'SBIN0ABC123', accountNumber: '123456789', holderName: 'A' };
    assert.ok(settlementAccountSchema.safeParse(ok).success);
    for (const ifsc of ['SBIN1ABC123', 'SBI0ABC1234', 'SBIN0ABC12', 'SBIN0ABC1234', 'sbin0abc123'])
      assert.equal(settlementAccountSchema.safeParse({ ...ok, ifsc }).success, false, ifsc);
    assert.equal(maskAccountNumber('50100123456789'), 'XXXXXXXXXX6789');
  });

  it('splitShares: the master first, shares adding up to orderAmount, subs distinct and above 0', () => {
    const r = (subs: { zaakMerchantIdentifier: string; merchantAmount: string }[], master = '0', orderAmount = '1000') =>
      splitShares(
        'master1',
        splitRequestSchema.parse({
          orderId: 'o1',
          orderAmount,
          masterMerchantIdentifier: { zaakMerchantIdentifier: 'master1', merchantAmount: master },
          subMerchantIdentifiers: subs,
        }),
      );
    assert.deepEqual(
      r([
        { zaakMerchantIdentifier: ' sub1 ', merchantAmount: '600' },
        { zaakMerchantIdentifier: 'sub2', merchantAmount: '400' },
      ]),
      {
        orderId: 'o1',
        orderAmountPaise: 1000,
        shares: [
          { merchantIdentifier: 'master1', amountPaise: 0 },
          { merchantIdentifier: 'sub1', amountPaise: 600 },
          { merchantIdentifier: 'sub2', amountPaise: 400 },
        ],
      },
    );
    assert.deepEqual(r([{ zaakMerchantIdentifier: 'sub1', merchantAmount: '999' }]), { refused: 'sharesDoNotAddUp' });
    assert.equal(
      (r([{ zaakMerchantIdentifier: 'master1', merchantAmount: '1000' }]) as { refused: string }).refused,
      'requestInvalid',
    );
    assert.equal(
      (r([{ zaakMerchantIdentifier: 'sub1', merchantAmount: '0' }], '1000') as { refused: string }).refused,
      'requestInvalid',
    );
  });

  it("report lines: Zaakpay's positive amounts with settlement_action the direction; the CSV keeps the stored signs", () => {
    const refund = {
      _id: 'REFUND:R1:m',
      settlementId: 'settlement:m:2026-11-24',
      merchantIdentifier: 'm',
      settlementDate: '2026-11-24',
      txnId: 'T1',
      orderId: 'o-1',
      action: 'REFUND',
      txnDate: new Date('2026-11-21T15:29:01Z'),
      amountPaise: 31890,
      feePaise: -638,
      taxPaise: -115,
      settlementAmountPaise: -31137,
    } as SettlementLine;
    const money = (l: ReturnType<typeof toReportLine>) => [
      l.amount,
      l.partner_service_fee,
      l.partner_service_tax,
      l.settlement_amount,
    ];
    assert.deepEqual(money(toReportLine(refund, null)), ['318.90', '6.38', '1.15', '311.37']);
    assert.equal(toReportLine(refund, null).settlement_action, 'REFUND');
    assert.deepEqual(money(toSignedReportLine(refund, null)), ['318.90', '-6.38', '-1.15', '-311.37']);
    const chargeback = {
      ...refund,
      action: 'CHARGEBACK',
      feePaise: 0,
      taxPaise: 0,
      settlementAmountPaise: -31890,
    } as SettlementLine;
    assert.deepEqual(money(toReportLine(chargeback, null)), ['318.90', '0.00', '0.00', '318.90']);
    assert.deepEqual(refund.settlementAmountPaise, -31137, 'the stored line is untouched');
  });
});
