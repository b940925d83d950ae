import type { AudienceModule } from '../audience';
import { checkTxnOperation } from './check-txn';
import { expressCheckoutOperations, legacyCheckoutOperation } from './checkout-entries';
import { formDataComponentSchemas } from './form-data-schemas-openapi';
import { bulkOperation } from './bulk';
import { ledgerOperation } from './ledger';
import { checkTransactionOperation, updateTransactionOperation } from './legacy-xml';
import { mandateOperation } from './mandates';
import { paymentLinkOperation } from './payment-links';
import { qrOperation } from './qr';
import { qrImageOperation } from './qr-image';
import { refundOperation } from './refunds';
import { settlementListOperation } from './settlement-list';
import { settlementReportOperation } from './settlement-report';
import { splitOperation } from './split-payments';
import { statusOperation } from './status';
import { transactUCheckoutOperation } from './transact-u';
import { webhookCallbacks, webhookComponentSchemas } from './webhook-callbacks-openapi';

/**
 * The merchant API: what a merchant's server calls (status, QR, refunds, ledger and bulk, payment
 * links, mandates, Zaakpay's checkout entries and legacy APIs), and the webhooks it receives.
 */
export const merchantModule: AudienceModule = {
  name: 'merchant',
  operations: [
    statusOperation,
    qrOperation,
    qrImageOperation,
    paymentLinkOperation,
    settlementReportOperation,
    splitOperation,
    settlementListOperation,
    refundOperation,
    ledgerOperation,
    bulkOperation,
    mandateOperation,
    transactUCheckoutOperation,
    ...expressCheckoutOperations,
    legacyCheckoutOperation,
    checkTransactionOperation,
    updateTransactionOperation,
    checkTxnOperation,
  ],
  componentSchemas: () => ({ ...webhookComponentSchemas(), ...formDataComponentSchemas() }),
  webhooks: webhookCallbacks,
  // The payment link API's addresses speak its envelope, an address it does not serve (a 404) too.
  envelope: { kindOf: (path) => (path.startsWith('/pl/api/') ? 'paylink' : undefined) },
};
