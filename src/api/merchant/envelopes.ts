import type { EnvelopeDeclaration } from '../audience';
import type { EnvelopeKind } from '../envelope';

/**
 * The merchant API's envelopes of the routes not yet declared as operations (an operation declares
 * its own): Zaakpay's entries their own answer shapes, and everything else `{success, message: {code: string}}`.
 */
const BY_PATH: Record<string, EnvelopeKind> = {
  // A version no operation selects (v=8 is the checkout's, v=12 and 13 the mandates'): refused in the mandate shape.
  '/transactU': 'mandate',
};

const BY_LOWER_CASE_PATH = new Map(Object.entries(BY_PATH).map(([path, kind]) => [path.toLowerCase(), kind]));

export const merchantEnvelopes: EnvelopeDeclaration = {
  kindOf(path) {
    if (path.startsWith('/pl/api/')) return 'paylink';
    return BY_LOWER_CASE_PATH.get(path);
  },
  /**
   * APIs whose contract fixes their own codes: the ledger answers every unexpected failure with 1036
   * (never a 500), the bulk API every invalid request with 100 "Validation Failed".
   */
  // The ledger's field codes (1026-1031) are chosen by its operation (body.invalid), which knows which field failed.
  familyErrors: {
    '/api/v1/ledger': {
      internal: 'ledgerGenericFailure',
      dependencyUnavailable: 'ledgerGenericFailure',
      apiKeyMissing: 'ledgerApiKeyMissing',
      apiKeyInvalid: 'ledgerApiKeyInvalid',
    },
    '/api/v1/fetchtxn': {
      validationFailed: 'bulkValidationFailed',
      malformedJson: 'bulkValidationFailed',
      malformedBody: 'bulkValidationFailed',
    },
  },
};
