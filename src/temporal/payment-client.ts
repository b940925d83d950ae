import { WorkflowExecutionAlreadyStartedError, type Client, type Connection } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { BankAnswer, BankRedirect } from '../bank/connector';
import { describeInstrument, type PaymentInstrument } from '../domain/instrument';
import { formatRupees } from '../domain/money';
import { withCallContext } from './call-context';
import { PAYMENT_WORKFLOW_TYPE, type PaymentWorkflow, type PaymentWorkflowInput } from './payment-contract';
import {
  awaitBankRedirectUpdate,
  bankAnswerUpdate,
  bankRedirectQuery,
  payerCancelUpdate,
  paymentStageQuery,
  qrPayerUpdate,
  type PaymentStage,
} from './payment-messages';
import { KindKey, MerchantIdKey, OrderIdKey, TxnStatusKey } from './search-attributes';
import { paymentWorkflowId } from './workflow-ids';

/** The order a payment workflow is named by. */
export interface PaymentOrder {
  merchantIdentifier: string;
  orderId: string;
}

/** Temporal UI's Kind of a payment workflow, by how the order is paid. */
const PAYMENT_KIND: Partial<Record<PaymentInstrument['kind'], string>> = {
  UPI_QR: 'qr-payment',
  PAYMENT_LINK: 'payment-link',
  CHECKOUT: 'checkout',
};

/**
 * The payment workflow as its callers see it (workflows/payment.ts): its id, start options, search
 * attributes and memo, and its messages. Temporal's errors reach the caller as they are
 * (WorkflowUpdateFailedError when a validator refuses, WorkflowNotFoundError when it is not running).
 */
export function paymentWorkflowClient(temporal: Client) {
  const handle = (order: PaymentOrder) => temporal.workflow.getHandle(paymentWorkflowId(order.merchantIdentifier, order.orderId));
  return {
    /**
     * Starts the order's workflow unless it exists: a running one is reused, a closed one refused
     * (the order already has its result). True when this call started it.
     */
    async startUnlessExists(taskQueue: string, input: PaymentWorkflowInput): Promise<boolean> {
      try {
        await temporal.workflow.start<PaymentWorkflow>(PAYMENT_WORKFLOW_TYPE, {
          workflowId: paymentWorkflowId(input.merchantIdentifier, input.orderId),
          taskQueue,
          args: [input],
          workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
          typedSearchAttributes: [
            { key: MerchantIdKey, value: input.merchantIdentifier },
            { key: OrderIdKey, value: input.orderId },
            { key: TxnStatusKey, value: 'Pending' },
            { key: KindKey, value: PAYMENT_KIND[input.instrument.kind] ?? 'payment' },
          ],
          memo: { txnId: input.txnId, amount: formatRupees(input.amountPaise), instrument: describeInstrument(input.instrument) },
        });
        return true;
      } catch (e) {
        if (e instanceof WorkflowExecutionAlreadyStartedError) return false;
        throw e;
      }
    },

    /** Offers a bank's late answer (bankAnswerUpdate). */
    async offerBankAnswer(order: PaymentOrder, answer: BankAnswer): Promise<void> {
      await handle(order).executeUpdate(bankAnswerUpdate, { args: [answer] });
    },

    /** Offers a payer to an order that waits for one (qrPayerUpdate). */
    async offerPayer(order: PaymentOrder, payer: PaymentInstrument): Promise<void> {
      await handle(order).executeUpdate(qrPayerUpdate, { args: [payer] });
    },

    /** The payer cancels an order that waits for one (payerCancelUpdate). */
    async cancelByPayer(order: PaymentOrder): Promise<void> {
      await handle(order).executeUpdate(payerCancelUpdate);
    },

    /** Where the workflow is (paymentStageQuery). */
    stage: (order: PaymentOrder): Promise<PaymentStage> => handle(order).query(paymentStageQuery),

    /** The bank page the payer must visit, as the workflow knows it now (bankRedirectQuery). */
    bankRedirect: (order: PaymentOrder): Promise<BankRedirect | null> => handle(order).query(bankRedirectQuery),

    /** The bank page once the workflow knows it (awaitBankRedirectUpdate), given up after `timeoutMs`. */
    awaitBankRedirect(order: PaymentOrder, timeoutMs: number): Promise<BankRedirect | null> {
      const h = handle(order);
      return withCallContext(temporal.connection as Connection, () =>
        temporal.withAbortSignal(AbortSignal.timeout(timeoutMs), () => h.executeUpdate(awaitBankRedirectUpdate)),
      );
    },
  };
}
