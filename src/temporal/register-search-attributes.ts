import type { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { customSearchAttributes } from './search-attributes';

/**
 * Registers the custom search attributes through the operator API: for servers started without
 * them (the time-skipping test server takes no flags for them). All of them are keywords. Kept out
 * of search-attributes.ts, which workflows import: the protobuf definitions stay out of their bundle.
 */
export async function registerSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(customSearchAttributes.map((k) => [k.name, keyword])),
  });
}
