import Router from '@koa/router';
import { ApiError, BusinessResults } from '../../domain/api-errors';
import { toBulkRecord, toLedgerRecord } from '../../domain/ledger-record';
import { txnStatusesFor } from '../../domain/ledger-state';
import { istDay, istPeriod } from '../../domain/report-range';
import type { ApiDeps } from '../deps';
import { apiKeyAuth, verifiedWithKeysInForce } from '../middleware/authenticate';
import { parseJsonBody, readRawBody, validate } from '../middleware/body';
import { respondWithPage } from '../page-stream';
import { pageWalks } from '../page-walk';
import {
  BULK_DEFAULT_PAGE_SIZE,
  bulkRequestSchema,
  LEDGER_DEFAULT_PAGE_SIZE,
  LEDGER_MAX_PAGE_SIZE,
  ledgerErrorKind,
  ledgerRequestSchema,
  NO_BULK_TRANSACTION,
} from '../schemas/ledger';
import { checksumMatches } from '../../domain/checksum';
import type { Merchant } from '../../domain/merchant';

/**
 * POST /api/v1/ledger and POST /api/v1/fetchtxn (`X-API-Key`): a merchant's transactions, page by
 * page, streamed from the store as they are read. Only the key's merchant is ever queried.
 */
const noRecord = BusinessResults.ledgerNoRecord;

export function ledgerRoutes(deps: ApiDeps): Router {
  const router = new Router();
  const kit = ledgerKit(deps);
  ledgerRoute(router, deps, kit);
  fetchTxnRoute(router, deps, kit);
  return router;
}

/** POST /api/v1/ledger: a page of the ledger. */
function ledgerRoute(router: Router, deps: ApiDeps, kit: LedgerKit): void {
  const { auth, ledgerWalks } = kit;
  router.post('/api/v1/ledger', auth, async (ctx) => {
    const merchant = ctx.state.merchant as Merchant;
    await deps.rateLimit.consume(ctx, 'ledger', merchant.merchantIdentifier);
    const parsed = parseJsonBody(await readRawBody(ctx, 'application/json', deps.config.MAX_BODY_BYTES));
    const size = (parsed as { pageSize?: unknown } | null)?.pageSize;
    if (Number.isInteger(size) && (size as number) > LEDGER_MAX_PAGE_SIZE) throw new ApiError('ledgerPageSizeExceeded');
    const body = validate(ledgerRequestSchema, parsed, ledgerErrorKind);
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
    const readAt = deps.now();
    const after = await ledgerWalks.startOf(query, pageNumber);
    const cursor = deps.transactions.ledgerPage({
      ...query,
      skip: after ? 0 : (pageNumber - 1) * pageSize,
      limit: pageSize + 1,
      after,
    });
    await respondWithPage(ctx, cursor, {
      pageSize,
      empty: () => JSON.stringify({ success: false, message: { code: String(noRecord.code), text: noRecord.text } }),
      open: '{"success":true,"data":{"transactions":[',
      close: (next) => `],"isNextPageAvailable":${next}}}`,
      serialize: (t) => JSON.stringify(toLedgerRecord(t)),
      onFullPage: (last) => ledgerWalks.ended(query, pageNumber, readAt, last),
    });
  });
}

/** POST /api/v1/fetchtxn: a page of transactions by success time. */
function fetchTxnRoute(router: Router, deps: ApiDeps, kit: LedgerKit): void {
  const { auth, bulkWalks } = kit;
  router.post('/api/v1/fetchtxn', auth, async (ctx) => {
    const merchant = ctx.state.merchant as Merchant;
    await deps.rateLimit.consume(ctx, 'bulk', merchant.merchantIdentifier);
    const raw = await readRawBody(ctx, 'application/json', deps.config.MAX_BODY_BYTES);
    // The checksum header is optional; when sent it must sign the exact body (design.md, Limits and pagination).
    const presented = ctx.get('checksum');
    if (
      presented &&
      !(await verifiedWithKeysInForce(deps.merchants, merchant, deps.now(), (keys) => checksumMatches(keys, raw, presented)))
    )
      throw new ApiError('checksumMismatch');
    const body = validate(bulkRequestSchema, parseJsonBody(raw));
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
    const readAt = deps.now();
    const after = await bulkWalks.startOf(query, pageNumber);
    // One more than the page, only to learn where a full page ends (the contract says nothing of a next page).
    const cursor = deps.transactions.bulkPage({
      ...query,
      skip: after ? 0 : (pageNumber - 1) * pageSize,
      limit: pageSize + 1,
      after,
    });
    await respondWithPage(ctx, cursor, {
      pageSize,
      empty: () => JSON.stringify({ success: true, data: NO_BULK_TRANSACTION }),
      open: '{"success":true,"data":[',
      close: () => ']}',
      serialize: (t) => JSON.stringify(toBulkRecord(t, merchant.secretKey)),
      onFullPage: (last) => bulkWalks.ended(query, pageNumber, readAt, last),
    });
  });
}

/** What the ledger routes share: the API key check and each page walk. */
function ledgerKit(deps: ApiDeps) {
  const auth = apiKeyAuth(deps.merchants, deps.now);
  const ledgerWalks = pageWalks(deps.transactions, deps.metrics, 'ledger', 'createdAt');
  const bulkWalks = pageWalks(deps.transactions, deps.metrics, 'bulk', 'successAt');
  return { auth, ledgerWalks, bulkWalks };
}

type LedgerKit = ReturnType<typeof ledgerKit>;
