import type { Connection } from '@temporalio/client';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

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

/**
 * Registers the custom search attributes through the operator API: for servers started without
 * them (the time-skipping test server takes no flags for them). All of them are keywords.
 */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(customSearchAttributes.map((k) => [k.name, keyword])),
  });
}
