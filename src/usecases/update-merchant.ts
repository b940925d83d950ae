import type { Merchant, MerchantSettings, MerchantSettingsView } from '../domain/merchant';
import type { MerchantRepository } from '../store/merchant-repository';

/** The merchant's settings as the operator API and CLI show them (never its secrets). */
export function merchantSettingsView(m: Merchant): MerchantSettingsView {
  return {
    merchantIdentifier: m.merchantIdentifier,
    name: m.name,
    webhookUrl: m.webhookUrl,
    webhookFormat: m.webhookFormat,
    autoRefund: m.autoRefund,
    settlementWebhook: m.settlementWebhook,
    defaultReturnUrl: m.defaultReturnUrl,
  };
}

/**
 * Changes a merchant's webhook address, webhook body format, auto-refund, settlement webhook opt-in or
 * default return URL; null when unknown.
 */
export async function updateMerchant(merchants: MerchantRepository, merchantIdentifier: string, settings: MerchantSettings) {
  const merchant = await merchants.updateSettings(merchantIdentifier, settings);
  return merchant ? merchantSettingsView(merchant) : null;
}
