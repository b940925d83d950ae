import type { AudienceModule } from '../audience';
import { sandboxPaymentOperation } from './sandbox';
import { sandboxCheckoutReturnRoutes } from './sandbox-checkout-return';
import { sandboxCheckoutReturnPaths } from './sandbox-checkout-return-openapi';
import { sandboxMandateRevokeOperation } from './sandbox-mandates';
import { sandboxQrPayOperation } from './sandbox-qr';
import { timeOperation, timeSkipOperation } from './sandbox-time';

/**
 * The sandbox (/sandbox/v1, SANDBOX_ENABLED only): test payments, QR and mandate events, a returnUrl
 * to try the checkout with, and time travel (time-skipping mode only), served and documented only
 * where they are on (each operation's onlyWhere).
 */
export const sandboxModule: AudienceModule = {
  name: 'sandbox',
  operations: [sandboxPaymentOperation, sandboxQrPayOperation, sandboxMandateRevokeOperation, timeOperation, timeSkipOperation],
  // The checkout's returnUrl answers an HTML page to a flat form: not a declared operation.
  routers: (deps) => (deps.config.SANDBOX_ENABLED ? [sandboxCheckoutReturnRoutes(deps)] : []),
  paths: (o) => (o.sandboxEnabled ? sandboxCheckoutReturnPaths() : {}),
};
