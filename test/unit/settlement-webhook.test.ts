import { strict as assert } from 'node:assert';
import { settlementProcessedSchema } from '../../src/api/schemas/webhook-payload';
import type { Settlement } from '../../src/domain/settlement';
import { parseUtrDate } from '../../src/domain/settlement-report';
import { settlementProcessedDeliveryId, settlementProcessedEvent, utrDateText } from '../../src/domain/settlement-webhook';

describe('settlement.processed webhook body (pure)', () => {
  const paid: Settlement = {
    _id: 'settlement:m1:2026-11-24',
    merchantIdentifier: 'm1',
    settlementDate: '2026-11-24',
    state: 'paid',
    lineCount: 3,
    grossPaise: 56_890,
    refundsPaise: 1_000,
    chargebacksPaise: 0,
    feePaise: 1_138,
    taxPaise: 205,
    carriedInPaise: -2_500,
    netPaise: 56_890 - 1_000 - 1_138 - 205 - 2_500,
    carriedOutPaise: 0,
    utr: 'UTR2611240001',
    // 03:30 UTC is 09:00 IST.
    paidAt: new Date('2026-11-24T03:30:07Z'),
    createdAt: new Date('2026-11-24T03:30:00Z'),
  };

  it('carries the UTR, the IST dates and every figure as rupees text, in the shape the API reference publishes', () => {
    const event = settlementProcessedEvent(paid);
    assert.deepEqual(event, {
      event: 'settlement.processed',
      settlementId: 'settlement:m1:2026-11-24',
      merchantIdentifier: 'm1',
      settlementDate: '24-11-2026',
      utr: 'UTR2611240001',
      paidAt: '2026-11-24 09:00:07',
      transactionCount: '3',
      grossAmount: '568.90',
      refundAmount: '10.00',
      chargebackAmount: '0.00',
      feeAmount: '11.38',
      taxAmount: '2.05',
      carriedInAmount: '-25.00',
      netAmount: '520.47',
    });
    assert.deepEqual(settlementProcessedSchema.parse(event), event);
  });

  it('the settlement date reads back as getSettlementReport’s utr_date; the delivery id is named by the settlement', () => {
    assert.equal(utrDateText('2026-01-05'), '05-01-2026');
    assert.equal(parseUtrDate(utrDateText(paid.settlementDate)), paid.settlementDate);
    assert.equal(settlementProcessedDeliveryId(paid), 'settlement-processed:m1:2026-11-24');
  });
});
