/**
 * The gateway's error catalogue: every failure a client can see, with its HTTP status (as
 * design.md's HTTP status codes assign them), its numeric code and its text. Codes 2000-2099 are the gateway's
 * own; the contract's codes (100, 128, 1030, 1101...) stay with the APIs that define them.
 */
export const ApiErrors = {
  malformedJson: { http: 400, code: 2001, text: 'Request body is not valid JSON' },
  malformedBody: { http: 400, code: 2005, text: 'Request body is malformed' },
  validationFailed: { http: 400, code: 2002, text: 'Validation failed' },
  unsupportedMediaType: { http: 415, code: 2003, text: 'Unsupported content type' },
  bodyTooLarge: { http: 413, code: 2004, text: 'Request body too large' },
  headersTooLarge: { http: 431, code: 2006, text: 'Request headers too large' },
  requestTimeout: { http: 408, code: 2007, text: 'The request was not received in time' },
  badRequest: { http: 400, code: 2008, text: 'Malformed HTTP request' },
  unsupportedVersion: { http: 400, code: 2009, text: 'Unsupported or missing API version: send v=8, v=12 or v=13' },
  unknownEncryptionKey: { http: 400, code: 2015, text: 'Unknown encryptionKeyId for this merchant' },
  qrPixelBudgetExceeded: {
    http: 400,
    code: 2018,
    text: 'The QR images this request asks for exceed the pixel budget of one request (QR_PIXEL_BUDGET)',
  },
  payerVpaUndecryptable: { http: 400, code: 2016, text: 'payerVpa could not be decrypted with the key of encryptionKeyId' },
  checksumMissing: { http: 401, code: 2010, text: 'Checksum is missing' },
  checksumMismatch: { http: 401, code: 2011, text: 'Checksum does not match' },
  unknownMerchant: { http: 401, code: 2012, text: 'Unknown merchant' },
  apiKeyMissing: { http: 401, code: 2013, text: 'API key is missing or invalid' },
  apiKeyInvalid: { http: 401, code: 2013, text: 'API key is missing or invalid' },
  operatorTokenInvalid: { http: 401, code: 2014, text: 'Operator token is missing or invalid' },
  operatorScopeMissing: { http: 403, code: 2019, text: "The operator token's scopes do not include this operation" },
  bankSignatureInvalid: {
    http: 401,
    code: 2017,
    text: 'Bank signature is missing, does not match, or its timestamp is outside the 5-minute window',
  },
  rateLimited: { http: 429, code: 2029, text: 'Too many requests' },
  routeNotFound: { http: 404, code: 2040, text: 'No such endpoint' },
  merchantNotFound: { http: 404, code: 2042, text: 'No such merchant' },
  reconciliationNotFound: { http: 404, code: 2043, text: 'No such reconciliation' },
  webhookDeliveryNotFound: { http: 404, code: 2044, text: 'No such webhook delivery' },
  bankCallbackUnknown: {
    http: 404,
    code: 2045,
    text: 'The callback names a transaction, refund or mandate the gateway never sent this bank',
  },
  bankCallbackMismatch: { http: 409, code: 2046, text: "The callback contradicts the gateway's record of the transaction" },
  merchantIdentifierTaken: { http: 409, code: 2047, text: 'A merchant with this merchantIdentifier exists already' },
  keyNotFound: { http: 404, code: 2048, text: 'No such key for this merchant' },
  operatorTokenNotFound: { http: 404, code: 2065, text: 'No such operator token' },
  operatorTokenNameTaken: {
    http: 409,
    code: 2066,
    text: 'An operator token of this name exists already (revoked names are not reused)',
  },
  settlementNotFound: { http: 404, code: 2060, text: 'No such settlement' },
  subMerchantLinkRefused: { http: 409, code: 2061, text: 'These merchants cannot be linked so: splits do not chain' },
  customIdentifierTaken: { http: 409, code: 2062, text: 'The master already has a sub-merchant of this custom identifier' },
  settlementRunRefused: {
    http: 409,
    code: 2064,
    text: 'This date cannot be settled yet: not a working day, or its capture window has not closed',
  },
  settlementAccountChangeNotFound: {
    http: 404,
    code: 2067,
    text: 'No change of the settlement bank account is waiting for confirmation',
  },
  settlementAccountConfirmRefused: {
    http: 409,
    code: 2068,
    text: 'Refused: a change needs a second operator, and an early confirmation an account that still cools',
  },
  methodNotAllowed: { http: 405, code: 2041, text: 'Method not allowed' },
  dependencyUnavailable: { http: 503, code: 2050, text: 'Service temporarily unavailable' },
  timeSkipUnfinished: { http: 503, code: 2051, text: 'The skip did not finish in time: workflows are still busy' },
  bankCallbackRetryLater: {
    http: 503,
    code: 2052,
    text: 'The payment is being decided or its workflow has not started: send the callback again',
  },
  // The ledger's and bulk API's own codes (the contract's Errors table).
  // The ledger's and bulk API's own codes: Zaakpay's published ledger codes (design.md, Limits and pagination).
  ledgerApiKeyMissing: { http: 401, code: 100, text: 'API key value can not be empty.' },
  ledgerApiKeyInvalid: { http: 401, code: 112, text: 'X-API-KEY not correct.' },
  ledgerDateMissing: { http: 400, code: 1026, text: 'startDateTime or endDateTime is missing' },
  ledgerStatusInvalid: { http: 400, code: 1027, text: 'status is missing or invalid' },
  ledgerDateInvalid: { http: 400, code: 1028, text: 'Invalid date format' },
  ledgerPageInvalid: { http: 400, code: 1029, text: 'Invalid pageSize or pageNumber' },
  ledgerPageSizeExceeded: { http: 400, code: 1030, text: 'Page size exceeds the limit of 10000' },
  ledgerStartAfterEnd: { http: 400, code: 1031, text: 'startDateTime is after endDateTime' },
  ledgerGenericFailure: { http: 503, code: 1036, text: 'Generic failure, please try again' },
  bulkValidationFailed: { http: 400, code: 100, text: 'Validation Failed' },
  internal: { http: 500, code: 2099, text: 'Internal error' },
} as const;

export type ApiErrorKind = keyof typeof ApiErrors;

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    readonly detail?: string,
    /** A failed authentication: the merchant the caller claimed to be (counted against the claim). */
    readonly claimedMerchant?: string,
  ) {
    super(detail ? `${ApiErrors[kind].text}: ${detail}` : ApiErrors[kind].text);
    this.name = 'ApiError';
  }
}

/** Business results answered with HTTP 200 and a false flag (design.md, HTTP status codes). */
export const BusinessResults = {
  statusFound: { code: 100, text: 'Transaction completed successfully' },
  orderNotFound: { code: 2020, text: 'No transaction found for this order' },
  orderConflict: { code: 2030, text: 'Order already exists with different details' },
  /** The ledger's empty page (HTTP 200): merchants' paging loops stop on it. */
  ledgerNoRecord: { code: 1035, text: 'No record found.' },
  qrCreated: { code: 208, text: 'Transaction is in processing state' },
  qrOrderRepeated: { code: 128, text: 'Order id already processed' },
  notQrOrder: { code: 2031, text: 'This order is not a dynamic QR order' },
  qrNotOpen: { code: 2032, text: 'The QR is no longer open for payment (paid, expired or closed)' },
  chargebackNotAllowed: {
    code: 2033,
    text: 'Not allowed in the transaction state: raise needs Success, revert needs Chargeback or Partial Chargeback',
  },
  chargebackAmountExceeds: { code: 2034, text: 'The chargeback amount exceeds the transaction amount' },
  chargebackAmountDiffers: { code: 2035, text: 'A revert must carry the amount of the chargeback it reverts' },
  mandateNotFound: { code: 2036, text: 'No mandate with this orderId' },
  mandateNotActive: { code: 2037, text: 'The mandate is not active' },
} as const;
