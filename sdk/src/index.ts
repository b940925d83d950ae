export { GatewayClient, type GatewayClientOptions, type MandateInput, type RefundInput } from './client';
export { GatewayError } from './errors';
export { SignatureVerificationError } from './signature-error';
export { encryptPayerVpa, type VpaPadding } from './payer-vpa';
export { checksumMatches, hmacHex, qrChecksumText } from './checksum';
export {
  autoSubmitFormHtml,
  escapeHtml,
  signCustomCheckout,
  signExpressCheckout,
  signLegacyCheckout,
  verifyCheckoutReturn,
  type CheckoutReturn,
  type ExpressCheckoutFields,
  type SignedForm,
} from './checkout';
export {
  isRealtimeTxn,
  isSettlementProcessed,
  verifyWebhook,
  WEBHOOK_ACKNOWLEDGEMENT,
  type VerifiedWebhook,
  type WebhookVerifyOptions,
} from './webhooks';
export { gatewayWebhookExpress, type WebhookRequest } from './middleware/express';
export { gatewayWebhookKoa, type KoaLikeContext } from './middleware/koa';
export { captureRawBody } from './middleware/raw-body';
export * as testing from './testing';
export type * from './types';
