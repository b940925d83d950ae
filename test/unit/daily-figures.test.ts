import { strict as assert } from 'node:assert';
import {
  addFigures,
  figureChange,
  figureContribution,
  figureDay,
  NO_FIGURES,
  type FigureSource,
} from '../../src/domain/daily-figures';

const order = (o: Partial<FigureSource>): FigureSource => ({
  createdAt: new Date('2026-03-10T06:00:00Z'),
  status: 'Pending',
  amountPaise: 12_345,
  successAt: null,
  ...o,
});
const paidAt = new Date('2026-03-10T06:00:02Z');

describe('daily figures: what one order contributes to its day (domain)', () => {
  it('a pending order is one order, neither paid nor failed, with no volume', () => {
    assert.deepEqual(figureContribution(order({})), { succeeded: 0, failed: 0, volumePaise: 0 });
  });

  it('a failed order counts as failed; a paid one as paid with its amount, whatever came after it', () => {
    assert.deepEqual(figureContribution(order({ status: 'Failure' })), { succeeded: 0, failed: 1, volumePaise: 0 });
    for (const status of ['Success', 'Refund', 'PartialRefund', 'Chargeback'] as const)
      assert.deepEqual(
        figureContribution(order({ status, successAt: paidAt })),
        { succeeded: 1, failed: 0, volumePaise: 12_345 },
        status,
      );
  });

  it('belongs to the IST day it was created on (18:30 UTC is the next IST day)', () => {
    assert.equal(figureDay(new Date('2026-03-09T18:29:59.999Z')), '2026-03-09');
    assert.equal(figureDay(new Date('2026-03-09T18:30:00Z')), '2026-03-10');
  });

  it('the change from what was counted: a new order adds one, a late success moves failed to paid, the same adds nothing', () => {
    const pending = figureContribution(order({}));
    const failed = figureContribution(order({ status: 'Failure' }));
    const paid = figureContribution(order({ status: 'Success', successAt: paidAt }));
    assert.deepEqual(figureChange(null, pending), { count: 1, succeeded: 0, failed: 0, volumePaise: 0 });
    assert.deepEqual(figureChange(null, paid), { count: 1, succeeded: 1, failed: 0, volumePaise: 12_345 });
    assert.deepEqual(figureChange(pending, failed), { count: 0, succeeded: 0, failed: 1, volumePaise: 0 });
    assert.deepEqual(figureChange(failed, paid), { count: 0, succeeded: 1, failed: -1, volumePaise: 12_345 });
    assert.equal(figureChange(paid, paid), null, 'a replayed write changes nothing');
    assert.equal(
      figureChange(paid, figureContribution(order({ status: 'Refund', successAt: paidAt }))),
      null,
      'a refund changes nothing',
    );
  });

  it('changes add up to the totals of the final states, to the paisa', () => {
    const pending = figureContribution(order({}));
    const failed = figureContribution(order({ status: 'Failure' }));
    const paid = figureContribution(order({ status: 'Success', successAt: paidAt }));
    const steps = [figureChange(null, pending)!, figureChange(pending, failed)!, figureChange(failed, paid)!];
    assert.deepEqual(steps.reduce(addFigures, NO_FIGURES), figureChange(null, paid));
  });
});
