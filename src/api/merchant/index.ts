import type { AudienceModule } from '../audience';
import { merchantEnvelopes } from './envelopes';
import { checkTxnRoutes } from './check-txn';
import { checkoutEntryRoutes } from './checkout-entries';
import { checkoutPaths } from './checkout-openapi';
import { formDataComponentSchemas } from './form-data-schemas-openapi';
import { bulkOperation } from './bulk';
import { ledgerOperation } from './ledger';
import { legacyXmlRoutes } from './legacy-xml';
import { legacyXmlPaths } from './legacy-xml-openapi';
import { mandateOperation } from './mandates';
import { paymentLinkOperation } from './payment-links';
import { qrOperation, qrRoutes } from './qr';
import { qrPaths } from './qr-openapi';
import { refundOperation } from './refunds';
import { settlementListOperation } from './settlement-list';
import { settlementReportOperation } from './settlement-report';
import { splitOperation } from './split-payments';
import { statusOperation } from './status';
import { transactURoutes } from './transact-u';
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
    paymentLinkOperation,
    settlementReportOperation,
    splitOperation,
    settlementListOperation,
    refundOperation,
    ledgerOperation,
    bulkOperation,
    mandateOperation,
  ],
  routers: (deps) => [
    qrRoutes(deps),
    transactURoutes(deps),
    checkoutEntryRoutes(deps),
    checkTxnRoutes(deps),
    legacyXmlRoutes(deps),
  ],
  paths: () => ({
    ...qrPaths(),
    ...checkoutPaths(),
    ...legacyXmlPaths(),
  }),
  componentSchemas: () => ({ ...webhookComponentSchemas(), ...formDataComponentSchemas() }),
  webhooks: webhookCallbacks,
  envelope: merchantEnvelopes,
};
