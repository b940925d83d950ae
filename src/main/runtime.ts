import { ADJUSTED_AT_MARKER, backfillAdjustedAt } from '../store/migrations/settlement-adjusted-at';
import { backfillAwaitingBank } from '../store/migrations/settlement-awaiting-bank';
import { isGrpcServiceError, type Client, type Connection } from '@temporalio/client';
import type { BankConnector, BankPayouts } from '../bank/connector';
import { SandboxBankConnector } from '../bank/sandbox-connector';
import { HttpBankConnector } from '../bank/http-connector';
import { refuseSimulatorBank } from '../bank/simulator-marker';
import type { Config } from '../config';
import type { Logger } from '../logger';
import { MandateRepository } from '../store/mandate-repository';
import { MerchantRepository } from '../store/merchant-repository';
import { CheckoutRepository } from '../store/checkout-repository';
import { PaymentLinkRepository } from '../store/payment-link-repository';
import { ReconciliationRepository } from '../store/reconciliation-repository';
import { WebhookRepository } from '../store/webhook-repository';
import { WebhookEndpointRepository } from '../store/webhook-endpoint-repository';
import { EndpointHealthBuffer } from '../store/webhook-endpoint-buffer';
import { connectStore, type Store } from '../store/mongo';
import { DailyFiguresRepository } from '../store/daily-figures-repository';
import { migrateOnce } from '../store/migration-markers';
import { TransactionRepository } from '../store/transaction-repository';
import { connectTemporalClient, testServiceOf } from '../temporal/client';
import { temporalTls } from '../temporal/tls';
import { settlementActivityDeps } from './settlement-runtime';
import { registerSearchAttributes } from '../temporal/register-search-attributes';
import { TestServerClock } from '../temporal/test-server-clock';
import { TimeTravel } from '../temporal/time-travel';
import { mandateWorkflowDeps } from '../usecases/create-mandate';
import { startPaymentDeps } from '../usecases/start-payment';
import type { ActivityDeps } from '../../activities';

/** The long-lived connections and repositories one process shares between API and worker. */
export interface Runtime {
  config: Config;
  logger: Logger;
  store: Store;
  merchants: MerchantRepository;
  transactions: TransactionRepository;
  mandates: MandateRepository;
  temporal: Client;
  now: () => Date;
  /** Time-skipping mode only: the test server's clock (which `now` reads) and the skips testers ask for. */
  timeTravel?: TimeTravel;
  /** Work to finish before the connections close (what a worker kept in memory is written); openRuntime has it. */
  onClose?(finish: () => Promise<void>): void;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, logger: Logger, mongodbUri: string, temporalAddress: string): Promise<Runtime> {
  if (config.env === 'production' && config.bank.connector === 'http') {
    const bank = await refuseSimulatorBank({
      baseUrl: config.bank.baseUrl!,
      secret: config.bank.secret!,
      timeoutMs: config.bank.callTimeoutSeconds * 1000,
    });
    if (bank === 'unreachable') logger.warn({ bank: config.bank.baseUrl }, 'the bank did not answer the start-up check');
  }
  const store = await connectStore(mongodbUri, config.store.database, {
    onStuckMonitor: (address) => logger.warn({ address }, "the store client's server monitor was stuck: the client reconnects"),
  });
  const temporal = await connectTemporalClient(temporalAddress, config.temporal.namespace, {
    timeSkipping: config.temporal.timeSkipping,
    masterKey: config.secrets.masterKey,
    previousMasterKeys: config.payloadCodec.previousMasterKeys,
    ...(config.payloadCodec.plaintextUntil ? { plaintextUntil: config.payloadCodec.plaintextUntil } : {}),
    tls: temporalTls(config.temporal),
    traced: config.observability.tracesEndpoint !== undefined,
  }).catch(async (e) => {
    await store.close();
    throw e;
  });
  const timeTravel = config.temporal.timeSkipping
    ? await openTimeTravel(config.temporal, temporal, temporalAddress).catch(async (e) => {
        await temporal.connection.close();
        await store.close();
        throw e;
      })
    : undefined;
  const now = timeTravel ? () => timeTravel.clock.now() : () => new Date();
  const merchants = new MerchantRepository(store.db, config.secrets.masterKey, config.store.merchantCacheSeconds * 1000);
  await merchants.backfillApiKeys();
  await merchants.migrateSecretsAtRest();
  await merchants.backfillWebhookSigningSecrets(now());
  const mandates = new MandateRepository(store.db, config.secrets.masterKey);
  await mandates.backfillOrderIdClaims();
  const transactions = new TransactionRepository(store.db, config.secrets.masterKey);
  // Payer data stored in clear before it was encrypted: sealed once per store (conditional, idempotent).
  await migrateOnce(store.db, 'payer-data-at-rest-v1', now(), async () => {
    await transactions.migratePayerDataAtRest();
    await mandates.migratePayerDataAtRest();
    await new WebhookRepository(store.db, config.secrets.masterKey).migratePayerDataAtRest();
  });
  // The buyer details, link mobiles and plans, and checkout VPAs, sealed later: their own marker.
  await migrateOnce(store.db, 'payer-data-at-rest-v2', now(), async () => {
    await transactions.migrateBuyerDataAtRest();
    await new PaymentLinkRepository(store.db, config.secrets.masterKey).migratePayerDataAtRest();
    await new CheckoutRepository(store.db, config.secrets.masterKey).migratePayerDataAtRest();
  });
  // Pending orders stored before the pending-payment sweep read them from its queue (SweepQueue).
  await migrateOnce(store.db, 'pending-sweep-queue-v1', now(), () => transactions.queuePendingForSweep());
  // The dashboard's daily figures, counted from the orders stored before they existed.
  await migrateOnce(store.db, 'daily-figures-v1', now(), () => new DailyFiguresRepository(store.db).rebuildAll(now()));
  // Orders refunded or charged back before settlements found adjustments by adjustedAt.
  await migrateOnce(store.db, ADJUSTED_AT_MARKER, now(), () => backfillAdjustedAt(store.db));
  // Payouts requested before the settlement recorded when the bank was first asked.
  await migrateOnce(store.db, 'settlement-awaiting-bank-v1', now(), () => backfillAwaitingBank(store.db));
  const beforeClose: (() => Promise<void>)[] = [];
  return {
    config,
    logger,
    store,
    merchants,
    transactions,
    mandates,
    temporal,
    now,
    timeTravel,
    onClose: (finish) => void beforeClose.push(finish),
    async close() {
      for (const finish of beforeClose.splice(0)) await finish().catch(() => undefined);
      await temporal.connection.close();
      await store.close();
    },
  };
}

/** Time-skipping mode: the test server's clock, and the search attributes the test server starts without. */
async function openTimeTravel(settings: Config['temporal'], temporal: Client, address: string): Promise<TimeTravel> {
  const clock = await TestServerClock.start(testServiceOf(temporal)).catch((e: Error) => {
    throw new Error(`TIME_SKIPPING needs the Temporal time-skipping test server at ${address}: ${e.message}`);
  });
  await registerSearchAttributes(temporal.connection as Connection, settings.namespace).catch((e: unknown) => {
    if (!(isGrpcServiceError(e) && e.code === 6)) throw e; // ALREADY_EXISTS: registered by another process of this run
  });
  return new TimeTravel(temporal, clock, settings.timeSkipTimeoutSeconds * 1000);
}

/** The bank the configuration names (BANK_CONNECTOR): the in-process sandbox, or an acquirer over http. */
export function bankConnector(config: Config): BankConnector & BankPayouts {
  if (config.bank.connector === 'http') {
    return new HttpBankConnector({
      baseUrl: config.bank.baseUrl!,
      secret: config.bank.secret!,
      gatewayBaseUrl: config.http.publicBaseUrl,
      callTimeoutMs: config.bank.callTimeoutSeconds * 1000,
      refuseSimulator: config.env === 'production',
    });
  }
  return new SandboxBankConnector(config.sandbox.refundSeconds * 1000);
}

export function activityDeps(rt: Runtime): ActivityDeps {
  const bank = bankConnector(rt.config);
  const webhookEndpoints = new WebhookEndpointRepository(rt.store.db);
  const webhookDisableAfterMs = rt.config.webhooks.endpointDisableAfterMs;
  // Endpoint health counted in memory and written every second; what is left is written at shutdown.
  const webhookEndpointHealth = new EndpointHealthBuffer(webhookEndpoints, webhookDisableAfterMs);
  rt.onClose?.(() => webhookEndpointHealth.close());
  return {
    ...settlementActivityDeps(rt, bank),
    ...startPaymentDeps(rt),
    merchants: rt.merchants,
    mandates: rt.mandates,
    mandateWorkflow: mandateWorkflowDeps(rt.config, rt.temporal),
    reconciliations: new ReconciliationRepository(rt.store.db),
    webhooks: new WebhookRepository(rt.store.db, rt.config.secrets.masterKey),
    webhookEndpoints,
    webhookEndpointHealth,
    webhookDisableAfterMs,
    webhookScheduleMs: rt.config.webhooks.retryScheduleMs,
    webhookQuickRetriesWithinMs: rt.config.webhooks.quickRetriesWithinMs,
    webhookBatchWindowMs: rt.config.webhooks.batchWindowMs,
    webhookAttemptTimeoutMs: rt.config.webhooks.attemptTimeoutSeconds * 1000,
    webhookAddressPolicy: {
      allowLoopback: rt.config.webhooks.allowLoopback,
      allowedRanges: rt.config.webhooks.allowedPrivateRanges,
    },
    bank,
  };
}
