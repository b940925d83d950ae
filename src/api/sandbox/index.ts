import type { AudienceModule } from '../audience';
import { sandboxPaymentOperation } from './sandbox';
import { sandboxCheckoutReturnOperation } from './sandbox-checkout-return';
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
  operations: [
    sandboxPaymentOperation,
    sandboxQrPayOperation,
    sandboxMandateRevokeOperation,
    sandboxCheckoutReturnOperation,
    timeOperation,
    timeSkipOperation,
  ],
};
