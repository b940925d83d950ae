import assert from 'node:assert/strict';
import * as workflows from '../../workflows';
import { MANDATE_DEBIT_WORKFLOW_TYPE, type MandateDebitWorkflow } from '../../src/temporal/mandate-debit-contract';
import { MANDATE_WORKFLOW_TYPE, MandateFailure, mandateRefusal, type MandateWorkflow } from '../../src/temporal/mandate-contract';
import { PAYMENT_WORKFLOW_TYPE, type PaymentWorkflow } from '../../src/temporal/payment-contract';
import { RECONCILIATION_WORKFLOW_TYPE, type ReconciliationWorkflow } from '../../src/temporal/reconciliation-contract';
import { REFUND_WORKFLOW_TYPE, type RefundWorkflow } from '../../src/temporal/refund-contract';
import {
  SETTLEMENT_DAY_WORKFLOW_TYPE,
  SETTLEMENT_FILE_WORKFLOW_TYPE,
  SETTLEMENT_WORKFLOW_TYPE,
  type SettlementDayWorkflow,
  type SettlementFileWorkflow,
  type SettlementWorkflow,
} from '../../src/temporal/settlement-contract';
import { PENDING_PAYMENTS_SWEEP_WORKFLOW_TYPE, type PendingPaymentsSweepWorkflow } from '../../src/temporal/sweep-contract';
import { WEBHOOK_BATCH_WORKFLOW_TYPE, type WebhookBatchWorkflow } from '../../src/temporal/webhook-batch-contract';
import { WEBHOOK_DELIVERY_WORKFLOW_TYPE, type WebhookDeliveryWorkflow } from '../../src/temporal/webhook-contract';

// Each workflow has the signature its contract declares (checked by the compiler: client code starts
// workflows by the contract's type, never by importing the workflow).
const signatures: {
  paymentWorkflow: PaymentWorkflow;
  refundWorkflow: RefundWorkflow;
  mandateWorkflow: MandateWorkflow;
  mandateDebitWorkflow: MandateDebitWorkflow;
  reconciliationWorkflow: ReconciliationWorkflow;
  pendingPaymentsSweepWorkflow: PendingPaymentsSweepWorkflow;
  webhookBatchWorkflow: WebhookBatchWorkflow;
  webhookDeliveryWorkflow: WebhookDeliveryWorkflow;
  settlementWorkflow: SettlementWorkflow;
  settlementDayWorkflow: SettlementDayWorkflow;
  settlementFileWorkflow: SettlementFileWorkflow;
} = workflows;

describe('workflow contracts (src/temporal/*-contract.ts)', () => {
  it('name each workflow by the name the worker registers it under', () => {
    const names: Record<keyof typeof signatures, string> = {
      paymentWorkflow: PAYMENT_WORKFLOW_TYPE,
      refundWorkflow: REFUND_WORKFLOW_TYPE,
      mandateWorkflow: MANDATE_WORKFLOW_TYPE,
      mandateDebitWorkflow: MANDATE_DEBIT_WORKFLOW_TYPE,
      reconciliationWorkflow: RECONCILIATION_WORKFLOW_TYPE,
      pendingPaymentsSweepWorkflow: PENDING_PAYMENTS_SWEEP_WORKFLOW_TYPE,
      webhookBatchWorkflow: WEBHOOK_BATCH_WORKFLOW_TYPE,
      webhookDeliveryWorkflow: WEBHOOK_DELIVERY_WORKFLOW_TYPE,
      settlementWorkflow: SETTLEMENT_WORKFLOW_TYPE,
      settlementDayWorkflow: SETTLEMENT_DAY_WORKFLOW_TYPE,
      settlementFileWorkflow: SETTLEMENT_FILE_WORKFLOW_TYPE,
    };
    for (const [exported, type] of Object.entries(names)) {
      assert.equal(signatures[exported as keyof typeof signatures].name, type, exported);
    }
    assert.deepEqual(Object.keys(workflows).sort(), Object.keys(names).sort(), 'every registered workflow has a contract');
  });

  it("read a mandate refusal thrown by a worker of the previous release under today's name", () => {
    assert.equal(mandateRefusal('continuingAsNew'), MandateFailure.CONTINUING_AS_NEW);
    assert.equal(mandateRefusal('inactive'), MandateFailure.INACTIVE);
    assert.equal(mandateRefusal('parentNotActive'), MandateFailure.NOT_ACTIVE);
    assert.equal(mandateRefusal(MandateFailure.INACTIVE), MandateFailure.INACTIVE);
    assert.equal(mandateRefusal('somethingElse'), 'somethingElse');
    assert.equal(mandateRefusal(undefined), undefined);
  });
});
