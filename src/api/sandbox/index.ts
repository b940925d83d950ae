import type { AudienceModule } from '../audience';
import { sandboxRoutes } from './sandbox';
import { sandboxCheckoutReturnRoutes } from './sandbox-checkout-return';
import { sandboxCheckoutReturnPaths } from './sandbox-checkout-return-openapi';
import { sandboxMandateRoutes } from './sandbox-mandates';
import { sandboxMandatePaths } from './sandbox-mandates-openapi';
import { sandboxPaths } from './sandbox-openapi';
import { sandboxQrRoutes } from './sandbox-qr';
import { sandboxQrPaths } from './sandbox-qr-openapi';
import { sandboxTimeRoutes } from './sandbox-time';
import { sandboxTimePaths } from './sandbox-time-openapi';

/**
 * The sandbox (/sandbox/v1, SANDBOX_ENABLED only): test payments, QR and mandate events, a returnUrl
 * to try the checkout with, and time travel (TIME_SKIPPING only), documented only where they are on.
 */
export const sandboxModule: AudienceModule = {
  name: 'sandbox',
  routers: (deps) => [
    ...(deps.config.SANDBOX_ENABLED
      ? [sandboxRoutes(deps), sandboxQrRoutes(deps), sandboxMandateRoutes(deps), sandboxCheckoutReturnRoutes(deps)]
      : []),
    ...(deps.timeTravel ? [sandboxTimeRoutes(deps, deps.timeTravel)] : []),
  ],
  paths: (o) => ({
    ...(o.sandboxEnabled
      ? { ...sandboxQrPaths(), ...sandboxMandatePaths(), ...sandboxCheckoutReturnPaths(), ...sandboxPaths() }
      : {}),
    ...(o.timeSkipping ? sandboxTimePaths() : {}),
  }),
};
