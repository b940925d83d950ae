import type { MerchantUseCases } from '../../api/merchant/use-cases';
import { CheckoutRepository } from '../../store/checkout-repository';
import { PaymentLinkRepository } from '../../store/payment-link-repository';
import { RefundRequestRepository } from '../../store/refund-request-repository';
import { SettlementReadRepository } from '../../store/settlement-read-repository';
import { SplitRepository } from '../../store/split-repository';
import { confirmMandateDebit } from '../../usecases/confirm-mandate-debit';
import { createMandate } from '../../usecases/create-mandate';
import { createPaymentLinks } from '../../usecases/create-payment-links';
import { createQr } from '../../usecases/create-qr';
import { notifyMandate } from '../../usecases/notify-mandate';
import { findOrder, readOrder } from '../../usecases/read-order';
import { settlementReads } from '../../usecases/read-settlements';
import { splitOrder, subMerchantNaming } from '../../usecases/split-order';
import { checkoutBankPostData, checkoutIntent, startCheckout } from '../../usecases/start-checkout';
import { startPaymentDeps } from '../../usecases/start-payment';
import { startRefund, startRefundDeps } from '../../usecases/start-refund';
import type { Runtime } from '../runtime';

/** The merchant audience's use cases, bound once to this process's store, Temporal client and clock. */
export function buildMerchantUseCases(rt: Runtime): MerchantUseCases {
  const { config, logger, transactions } = rt;
  const payments = startPaymentDeps(rt);
  const checkoutDeps = { ...payments, checkouts: new CheckoutRepository(rt.store.db, config.secrets.masterKey), config };
  const linkDeps = {
    ...payments,
    paymentLinks: new PaymentLinkRepository(rt.store.db, config.secrets.masterKey),
    config,
    logger,
  };
  const refundDeps = startRefundDeps({ ...rt, refundRequests: new RefundRequestRepository(rt.store.db) });
  const settlements = settlementReads(new SettlementReadRepository(rt.store.db));
  const splits = new SplitRepository(rt.store.db);
  return {
    readOrder: (order) => readOrder(rt, order),
    findOrder: (order) => findOrder(rt, order),
    findTransaction: (order) => transactions.findByOrder(order),
    startCheckout: (merchant, entry, request, ipAddress) => startCheckout(checkoutDeps, merchant, entry, request, ipAddress),
    checkoutBankPostData: (merchant, transaction, qr) =>
      checkoutBankPostData(checkoutIntent(config, merchant, transaction), transaction, qr),
    startRefund: (request) => startRefund(refundDeps, request),
    createQr: (request) => createQr({ ...payments, config }, request),
    createPaymentLinks: (merchant, batchId, entries, ipAddress) =>
      createPaymentLinks(linkDeps, merchant, batchId, entries, ipAddress),
    privateKeyPem: (merchantIdentifier, keyId) => rt.merchants.privateKeyPem(merchantIdentifier, keyId),
    createMandate: (merchant, request) => createMandate(rt, merchant, request),
    notifyMandate: (merchant, request) => notifyMandate(rt, merchant, request),
    confirmMandateDebit: (merchant, request) => confirmMandateDebit(rt, merchant, request),
    subMerchantNaming: (master, request) => subMerchantNaming(splits, master, request),
    splitOrder: (master, shares) => splitOrder({ splits, transactions, now: rt.now }, master, shares),
    latestSettlements: (merchantIdentifier, limit) => settlements.latest(merchantIdentifier, limit),
    settlementLinesOfDate: (merchantIdentifier, date) => settlements.linesOfDate(merchantIdentifier, date),
    settlementUtrs: (merchantIdentifier, settlementIds) => settlements.utrsOf(merchantIdentifier, settlementIds),
    ledgerPage: (query) => transactions.ledgerPage(query),
    bulkPage: (query) => transactions.bulkPage(query),
    transactionsWrittenSince: (query) => transactions.writtenSince(query),
  };
}
