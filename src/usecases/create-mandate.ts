import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import { ApiError } from '../domain/api-errors';
import { newTxnId } from '../domain/identifiers';
import { istStartOfDay, parseIstDateTime } from '../domain/ist-time';
import { type Mandate, type MandateAnswer, type MandateRequest } from '../domain/mandate';
import { firstDebitOrderIds, firstDebitOrderIdOf, firstDebitTxnId } from '../domain/mandate-first-debit';
import { mandateIntentUrls } from '../domain/mandate-intent';
import { renderQrPngOffLoop } from '../qr-render-pool';
import type { MandateRepository } from '../store/mandate-repository';
import type { Merchant } from '../domain/merchant';
import type { OrderRef, TransactionRepository } from '../store/transaction-repository';
import { mandateWorkflowClient } from '../temporal/mandate-client';

/** The sections a mandate's start reads. */
type MandateConfig = Pick<Config, 'upi' | 'mandates' | 'temporal' | 'sandbox'>;

export interface MandateDeps {
  config: MandateConfig;
  mandates: MandateRepository;
  transactions: TransactionRepository;
  temporal: Client;
  now: () => Date;
  /** false only where the point is not the webhook (workflow tests); absent means send them. */
  realtimeWebhook?: boolean;
}

export type { MandateAnswer };

const DAY_MS = 86_400_000;
const QR_SIDE = 300;

/**
 * Registers a mandate: checks its dates against today (IST), stores it CREATED and starts its
 * workflow, which asks the payer. A repeat of the same request answers as the first did; another
 * request with a used orderId is refused (1102).
 */
export async function createMandate(deps: MandateDeps, merchant: Merchant, request: MandateRequest): Promise<MandateAnswer> {
  const { config } = request;
  const now = deps.now();
  const validFrom = parseIstDateTime(config.startDate);
  const lastDay = parseIstDateTime(config.endDate);
  if (!validFrom)
    throw new ApiError('validationFailed', 'paymentInstrument.upiMandate.mandateConfig.startDate: not a calendar date');
  if (!lastDay) throw new ApiError('validationFailed', 'paymentInstrument.upiMandate.mandateConfig.endDate: not a calendar date');
  if (validFrom < istStartOfDay(now)) {
    throw new ApiError('validationFailed', 'paymentInstrument.upiMandate.mandateConfig.startDate: must be today or later (IST)');
  }
  if (lastDay <= validFrom) {
    throw new ApiError('validationFailed', 'paymentInstrument.upiMandate.mandateConfig.endDate: must be after startDate');
  }

  const order = { merchantIdentifier: merchant.merchantIdentifier, orderId: request.orderId };
  const used: MandateAnswer = { key: 'orderIdUsed', bankPostData: null };
  // Orders stored before orderIds were claimed are found by their own key.
  if (await deps.transactions.findByOrder(order)) return used;
  // One namespace per merchant: claimed first, atomically, against every other kind of order.
  const txnId = await deps.mandates.claimOrderId(order, newTxnId(now));
  if (!txnId) return used;
  const wanted: Mandate = {
    ...order,
    txnId,
    mode: request.mode,
    state: 'CREATED',
    payerVpa: request.payerVpa,
    maxAmountPaise: request.amountPaise,
    productDescription: request.productDescription,
    frequency: config.frequency,
    validFrom,
    validUntil: new Date(lastDay.getTime() + DAY_MS),
    firstDebit: config.firstDebit,
    firstDebitAmountPaise: config.firstDebit ? config.firstDebitAmount! : null,
    firstDebitOrderId: null,
    createdAt: now,
    updatedAt: now,
  };
  // A repeat finds its mandate; a new one first holds its first debit's orderId too.
  let mandate = await deps.mandates.findByOrder(order);
  if (!mandate) {
    if (config.firstDebit) {
      const firstDebitOrderId = await reserveFirstDebitOrderId(deps, order, txnId);
      if (!firstDebitOrderId) return used;
      wanted.firstDebitOrderId = firstDebitOrderId;
    }
    mandate = (await deps.mandates.insert(wanted)).mandate;
  }
  if (!sameMandate(mandate, wanted)) return used;
  // Only a mandate still awaiting its payer may lack its workflow; an ended one must not run again.
  if (mandate.state === 'CREATED') {
    await ensureMandateWorkflow(
      {
        ...mandateWorkflowDeps(deps.config, deps.temporal),
        realtimeWebhook: deps.realtimeWebhook,
      },
      mandate,
    );
  }
  return { key: 'created', bankPostData: await bankPostData(deps.config.upi, merchant, mandate, config) };
}

/**
 * Holds the first debit's orderId for it (a transaction made once the payer approves): the first of
 * its candidates free in the merchant's namespace (domain/mandate-first-debit.ts). Null when none is.
 */
async function reserveFirstDebitOrderId(deps: MandateDeps, order: OrderRef, txnId: string): Promise<string | null> {
  for (const orderId of firstDebitOrderIds(order.orderId, txnId)) {
    if (await deps.transactions.reserveOrderId({ ...order, orderId }, firstDebitTxnId(txnId))) return orderId;
  }
  return null;
}

/** A repeated create is the same mandate when it asks the same payer for the same permission. */
function sameMandate(a: Mandate, b: Mandate): boolean {
  return (
    a.payerVpa === b.payerVpa &&
    a.mode === b.mode &&
    a.maxAmountPaise === b.maxAmountPaise &&
    a.frequency === b.frequency &&
    a.validFrom.getTime() === b.validFrom.getTime() &&
    a.validUntil.getTime() === b.validUntil.getTime() &&
    a.firstDebitAmountPaise === b.firstDebitAmountPaise
  );
}

/** What starting a mandate's workflow needs: the API and the sweep build it from the configuration. */
export interface MandateWorkflowDeps {
  temporal: Client;
  taskQueue: string;
  payerAnswerDelayMs: number;
  debitRetryIntervalMs: number;
  realtimeWebhook?: boolean;
  updatesPerRun: number;
}

export const mandateWorkflowDeps = (config: MandateConfig, temporal: Client): MandateWorkflowDeps => ({
  temporal,
  updatesPerRun: config.mandates.updatesPerRun,
  taskQueue: config.temporal.taskQueue,
  payerAnswerDelayMs: config.sandbox.mandatePayerSeconds * 1000,
  debitRetryIntervalMs: config.mandates.debitRetryMinutes * 60_000,
});

/**
 * Starts the mandate's workflow unless it exists (running or ended): never twice while Temporal
 * remembers it. Call it only for a mandate the store holds CREATED.
 */
export async function ensureMandateWorkflow(deps: MandateWorkflowDeps, m: Mandate): Promise<void> {
  await mandateWorkflowClient(deps.temporal).startUnlessExists(
    deps.taskQueue,
    {
      merchantIdentifier: m.merchantIdentifier,
      orderId: m.orderId,
      txnId: m.txnId,
      payerVpa: m.payerVpa,
      frequency: m.frequency,
      validUntilMs: m.validUntil.getTime(),
      productDescription: m.productDescription,
      firstDebit: m.firstDebit
        ? { orderId: firstDebitOrderIdOf(m), txnId: firstDebitTxnId(m.txnId), amountPaise: m.firstDebitAmountPaise! }
        : null,
      payerAnswerDelayMs: deps.payerAnswerDelayMs,
      debitRetryIntervalMs: deps.debitRetryIntervalMs,
      ...(deps.realtimeWebhook === false ? { realtimeWebhook: false } : {}),
      updatesPerRun: deps.updatesPerRun,
    },
    { maxAmountPaise: m.maxAmountPaise, mode: m.mode },
  );
}

/** `ddMMyyyy` of an IST date as sent (`yyyy-MM-dd`). */
const npciDate = (isoDate: string) => isoDate.split('-').reverse().join('');

/** The create answer's bankPostData by mode: collect txnid; intent the app links; QR the intent's image. */
async function bankPostData(
  upi: Config['upi'],
  merchant: Merchant,
  m: Mandate,
  mandateConfig: MandateRequest['config'],
): Promise<Record<string, string>> {
  if (m.mode === 'upiCollectMandate') return { txnid: m.txnId };
  const urls = mandateIntentUrls({
    payeeVpa: upi.payeeVpa,
    payeeName: merchant.name,
    maxAmountPaise: m.maxAmountPaise,
    txnId: m.txnId,
    note: m.productDescription,
    frequency: m.frequency,
    validityStart: npciDate(mandateConfig.startDate),
    validityEnd: npciDate(mandateConfig.endDate),
  });
  if (m.mode === 'upiIntentMandate') return { ...urls, txnid: m.txnId };
  return {
    link: (await renderQrPngOffLoop(merchant.merchantIdentifier, urls.androidIntentUrl, QR_SIDE, QR_SIDE)).toString('base64'),
    txnid: m.txnId,
  };
}
