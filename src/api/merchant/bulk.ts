import { ApiError } from '../../domain/api-errors';
import { checksumMatches } from '../../domain/checksum';
import { toBulkRecord } from '../../domain/ledger-record';
import { txnStatusesFor } from '../../domain/ledger-state';
import type { Merchant } from '../../domain/merchant';
import { istDay } from '../../domain/report-range';
import { verifiedWithKeysInForce } from '../middleware/authenticate';
import { defineOperation, perApp, type AuthScheme } from '../operation';
import { apiKey } from '../operation-auth';
import { pageWalks } from '../page-walk';
import { BULK_DEFAULT_PAGE_SIZE, bulkRequestSchema, NO_BULK_TRANSACTION } from '../schemas/ledger';
import { bulkReference } from './ledger-openapi';

/** Where each walk of the bulk API's pages stopped, kept by the app that served it. */
const bulkWalks = perApp((deps) =>
  pageWalks((q) => deps.useCases.merchant.transactionsWrittenSince(q), deps.metrics, 'bulk', 'successAt'),
);

/**
 * `X-API-Key`; the `checksum` header is optional, and when sent it must sign the exact body, checked
 * before the body is parsed (design.md, Limits and pagination).
 */
const apiKeyAndOptionalChecksum: AuthScheme<Merchant> = {
  ...apiKey,
  async verifyBody(ctx, deps, merchant, raw) {
    const presented = ctx.get('checksum');
    if (
      presented &&
      !(await verifiedWithKeysInForce(deps.useCases.shared, merchant, deps.now(), (keys) =>
        checksumMatches(keys, raw, presented),
      ))
    )
      throw new ApiError('checksumMismatch');
    return null;
  },
};

/**
 * POST /api/v1/fetchtxn (`X-API-Key`): a page of the transactions that succeeded on one IST day,
 * by success time, streamed from the store as they are read. Only the key's merchant is ever queried.
 */
export const bulkOperation = defineOperation({
  method: 'post',
  path: '/api/v1/fetchtxn',
  envelope: 'success',
  // The contract answers any invalid request with 100 "Validation Failed", the reason in X-Error-Detail.
  errors: {
    instead: {
      validationFailed: 'bulkValidationFailed',
      malformedJson: 'bulkValidationFailed',
      malformedBody: 'bulkValidationFailed',
    },
    fixedText: true,
  },
  auth: apiKeyAndOptionalChecksum,
  body: { contentType: 'application/json', schema: bulkRequestSchema },
  limit: 'bulk',
  reference: bulkReference,
  async handle({ caller: merchant, body }, deps) {
    const day = istDay(body.txnDate);
    if (!day) throw new ApiError('validationFailed', 'txnDate: no such date');

    const pageSize = body.pageSize ?? BULK_DEFAULT_PAGE_SIZE;
    const pageNumber = body.pageNumber ?? 1;
    const query = {
      merchantIdentifier: merchant.merchantIdentifier,
      from: day.from,
      until: day.until,
      statuses: txnStatusesFor('SUCCESS'),
      pageSize,
    };
    // The contract says nothing of a next page: the record read past the page only tells where the next one starts.
    return bulkWalks(deps).page(
      query,
      pageNumber,
      deps.now(),
      (window) => deps.useCases.merchant.bulkPage({ ...query, ...window }),
      {
        empty: () => JSON.stringify({ success: true, data: NO_BULK_TRANSACTION }),
        open: '{"success":true,"data":[',
        close: () => ']}',
        serialize: (t) => JSON.stringify(toBulkRecord(t, merchant.secretKey)),
      },
    );
  },
});
