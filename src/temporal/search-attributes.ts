import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes operators filter by in Temporal UI. They must be registered on the
 * server first: temporal-config/search-attributes.yaml lists the same names for the dev server and
 * the compose admin-tools job (a unit test keeps the two in step).
 */
export const MerchantIdKey = defineSearchAttributeKey('MerchantId', SearchAttributeType.KEYWORD);
export const OrderIdKey = defineSearchAttributeKey('OrderId', SearchAttributeType.KEYWORD);
export const TxnStatusKey = defineSearchAttributeKey('TxnStatus', SearchAttributeType.KEYWORD);
export const KindKey = defineSearchAttributeKey('Kind', SearchAttributeType.KEYWORD);
/** A UPI AutoPay mandate's lifecycle state (CREATED, ACTIVE, DECLINED, INACTIVE, REVOKED, EXPIRED). */
export const MandateStateKey = defineSearchAttributeKey('MandateState', SearchAttributeType.KEYWORD);

export const customSearchAttributes = [MerchantIdKey, OrderIdKey, TxnStatusKey, KindKey, MandateStateKey];

/** A webhook delivery's: Kind `webhook`, its merchant and, when it is about one order, the orderId. */
export const webhookDeliverySearchAttributes = (d: { merchantIdentifier: string; orderId: string }) => [
  { key: MerchantIdKey, value: d.merchantIdentifier },
  ...(d.orderId ? [{ key: OrderIdKey, value: d.orderId }] : []),
  { key: KindKey, value: 'webhook' },
];
