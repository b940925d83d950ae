import { ApiError, BusinessResults } from '../../domain/api-errors';
import { toLedgerRecord } from '../../domain/ledger-record';
import { txnStatusesFor } from '../../domain/ledger-state';
import { istPeriod } from '../../domain/report-range';
import { describeIssues, type Issue } from '../middleware/body';
import { defineOperation, perApp } from '../operation';
import { apiKey } from '../operation-auth';
import { pageWalks } from '../page-walk';
import { LEDGER_DEFAULT_PAGE_SIZE, LEDGER_MAX_PAGE_SIZE, ledgerErrorKind, ledgerRequestSchema } from '../schemas/ledger';
import { ledgerReference } from './ledger-openapi';

const noRecord = BusinessResults.ledgerNoRecord;

/** Where each walk of the ledger's pages stopped, kept by the app that served it. */
const ledgerWalks = perApp((deps) =>
  pageWalks((q) => deps.useCases.merchant.transactionsWrittenSince(q), deps.metrics, 'ledger', 'createdAt'),
);

/** Zaakpay's ledger code of the field that failed; a page size over the limit has its own (1030). */
function ledgerInvalid(issues: readonly Issue[], parsed: unknown): ApiError {
  const size = (parsed as { pageSize?: unknown } | null)?.pageSize;
  if (Number.isInteger(size) && (size as number) > LEDGER_MAX_PAGE_SIZE) return new ApiError('ledgerPageSizeExceeded');
  return new ApiError(ledgerErrorKind(issues, parsed), describeIssues(issues));
}

/**
 * POST /api/v1/ledger (`X-API-Key`): a page of the merchant's transactions initiated in a period,
 * streamed from the store as they are read. Only the key's merchant is ever queried.
 */
export const ledgerOperation = defineOperation({
  method: 'post',
  path: '/api/v1/ledger',
  envelope: 'success',
  // The contract's own codes: any unexpected failure is 1036 (never a 500), the key's its own. The
  // field codes (1026-1031) are chosen by `ledgerInvalid`, which knows which field failed.
  errors: {
    instead: {
      internal: 'ledgerGenericFailure',
      dependencyUnavailable: 'ledgerGenericFailure',
      apiKeyMissing: 'ledgerApiKeyMissing',
      apiKeyInvalid: 'ledgerApiKeyInvalid',
    },
  },
  auth: apiKey,
  body: { contentType: 'application/json', schema: ledgerRequestSchema, invalid: ledgerInvalid },
  limit: 'ledger',
  reference: ledgerReference,
  async handle({ caller: merchant, body }, deps) {
    const start = istPeriod(body.startDateTime);
    const end = istPeriod(body.endDateTime);
    if (!start) throw new ApiError('ledgerDateInvalid', 'startDateTime: no such date');
    if (!end) throw new ApiError('ledgerDateInvalid', 'endDateTime: no such date');
    if (start.from >= end.until) throw new ApiError('ledgerStartAfterEnd');

    const pageSize = body.pageSize ?? LEDGER_DEFAULT_PAGE_SIZE;
    const pageNumber = body.pageNumber ?? 1;
    const query = {
      merchantIdentifier: merchant.merchantIdentifier,
      from: start.from,
      until: end.until,
      statuses: txnStatusesFor(body.status),
      includeDelayedSuccess: body.includeDelayedSuccessTxn ?? false,
      pageSize,
    };
    return ledgerWalks(deps).page(
      query,
      pageNumber,
      deps.now(),
      (window) => deps.useCases.merchant.ledgerPage({ ...query, ...window }),
      {
        empty: () => JSON.stringify({ success: false, message: { code: String(noRecord.code), text: noRecord.text } }),
        open: '{"success":true,"data":{"transactions":[',
        close: (next) => `],"isNextPageAvailable":${next}}}`,
        serialize: (t) => JSON.stringify(toLedgerRecord(t)),
      },
    );
  },
});
