import { z } from 'zod';
import { DEFAULT_FEE_PLAN } from '../../domain/settlement-fees';
import { pathParameter } from '../reference/examples';
import type { OperationReference } from '../operation';
import { successError } from '../reference/operation';
import { ATTENTION_REASONS } from '../../domain/settlement-attention';
import { feePlanSchema } from '../schemas/settlements';

const merchantIdentifier = { ...pathParameter('merchantIdentifier'), schema: { type: 'string', pattern: '^[A-Za-z0-9]{6,64}$' } };
const settlementId = pathParameter('settlementId');
const ok = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
const feePlanAnswer = ok(
  z.object({ merchantIdentifier: z.string(), source: z.enum(['merchant', 'default']), feePlan: feePlanSchema }),
);
const holdAnswer = ok(
  z.object({
    merchantIdentifier: z.string(),
    held: z.boolean(),
    released: z.array(z.string()).optional(),
    payoutRequested: z.array(z.string()).optional(),
  }),
);
const runAnswer = ok(
  z.object({
    merchantIdentifier: z.string(),
    settlementId: z.string(),
    settlementDate: z.string(),
    outcome: z.enum(['started', 'already_running', 'already_completed']),
    state: z.string().nullable().describe("the settlement's state now (null: its workflow has not opened it yet)"),
  }),
);
const attentionAnswer = ok(
  z.object({
    unfinished: z.array(
      z.object({ _id: z.string(), state: z.string(), reason: z.enum(ATTENTION_REASONS), workflow: z.string() }).loose(),
    ),
    refused: z.array(z.object({}).loose()),
    held: z.array(z.object({}).loose()),
    notStarted: z.array(z.object({}).loose()),
    bankFileFailures: z.array(z.object({ _id: z.string(), reason: z.string() }).loose()),
    differences: z.array(z.object({}).loose()),
  }),
);
const settlementRecord = z
  .object({ _id: z.string(), merchantIdentifier: z.string(), settlementDate: z.string(), state: z.string() })
  .loose();

const op = (o: Omit<OperationReference, 'errorEnvelope' | 'parameters'>, parameters: object[] = []): OperationReference => ({
  ...o,
  errorEnvelope: successError,
  parameters,
});
const read = (summary: string, description: string, schema: z.ZodType, errors: number[] = [401, 404, 503]) => ({
  summary,
  description,
  example: {},
  responses: { 200: { description: 'the answer', schema } },
  errors,
});

/*
 * The operator's side of settlements (docs/operators/settlements.md): fee plans, hold and release,
 * running a date, what needs attention, the bank file's differences and one settlement by id.
 */

/** A merchant's fee plan. */
export const feePlanReadReference = op(
  read(
    "A merchant's fee plan (operator)",
    "The merchant's own plan (source merchant) or the default of SETTLEMENT_FEE_PLAN (source default). Rates are basis points of the amount plus fixed paise, per instrument; GST 18 % is added on the fee. Unknown merchant: 404, code 2042.",
    feePlanAnswer,
  ),
  [merchantIdentifier],
);

/** A merchant's fee plan set. */
export const feePlanSetReference = op(
  {
    summary: "Set a merchant's fee plan (operator): used by its settlements from the next one on",
    description:
      'The whole plan: upi, card (debit and credit), optional per-network card rates, netbanking, wallet, each {percentBps, fixedPaise}, and refundReturnsFee. Unknown merchant: 404, code 2042.',
    example: DEFAULT_FEE_PLAN,
    responses: { 200: { description: 'the plan now in force', schema: feePlanAnswer } },
    errors: [400, 401, 404, 413, 415, 503],
  },
  [merchantIdentifier],
);

/** A merchant's settlements held. */
export const holdReference = op(
  {
    summary: "Hold a merchant's settlements (operator): they wait, state held, until released",
    description:
      'No body, or {}. Every settlement of the merchant whose payout is not yet requested waits (at its opening, or right before its payout); a payout already requested cannot be held: `payoutRequested` lists those settlements (their ids), which finish paid or refused whatever the hold. Unknown merchant: 404, code 2042.',
    bodyOptional: true,
    example: {},
    responses: { 200: { description: 'held', schema: holdAnswer } },
    errors: [400, 401, 404, 413, 415, 503],
  },
  [merchantIdentifier],
);

/** A merchant's held settlements released. */
export const releaseReference = op(
  {
    summary: "Release a merchant's held settlements (operator): they go on to the payout",
    description:
      'No body, or {}. `released` lists the held settlements (their ids) told to go on. Unknown merchant: 404, code 2042.',
    bodyOptional: true,
    example: {},
    responses: { 200: { description: 'released', schema: holdAnswer } },
    errors: [400, 401, 404, 413, 415, 503],
  },
  [merchantIdentifier],
);

/** A merchant's settlement of a date run. */
export const runReference = op(
  {
    summary: "Run a merchant's settlement of a date (operator): started, already running or already completed",
    description:
      "{date: yyyy-MM-dd}, the settlement (UTR) date. Starts the settlement workflow of that date the way the daily run does (through the payload codec): a date whose workflow failed, was terminated or timed out is run again (each step is idempotent, and picks up from the settlement's stored state); one running or completed is not started twice, and the answer says which (`outcome`, with the settlement's `state`). A date that is not a working day, or whose capture window has not closed yet (it would settle only what was captured so far), is refused with 409, code 2064, and nothing starts. Unknown merchant: 404, code 2042.",
    example: { date: '2026-11-24' },
    responses: { 200: { description: 'what the run did', schema: runAnswer } },
    errors: [400, 401, 404, 409, 413, 415, 503],
  },
  [merchantIdentifier],
);

/** What needs an operator. */
export const needsAttentionReference = op(
  read(
    'Settlements that need an operator (operator): every settlement not final in time, refused payouts, held settlements, merchants not started, bank files not checked, recent bank-file differences',
    "`unfinished`: settlements still open, held or awaiting the bank past their time (SETTLEMENT_ATTENTION_OPEN_MINUTES, _HELD_MINUTES, _PAYOUT_MINUTES), or whose workflow failed, was terminated or timed out, each with its `reason` (workflow_failed, workflow_terminated, workflow_timed_out, workflow_not_running, open_too_long, held_too_long, payout_pending_too_long) and its workflow's status; the next daily run or `POST .../settlements/run` runs them again. `refused`: refused payouts not yet carried into a later settlement (they leave the list when one takes their net). `held`: held settlements. `notStarted`: merchants the daily run could not start. `bankFileFailures`: payout dates whose bank file could not be checked, each with its `reason` (file_missing: the bank has no file of that date; file_unreadable) and `detail`. `differences`: differences found in the bank files of the last 7 days and not resolved since (a payout the bank paid before the gateway recorded it leaves the list once recorded paid). A settlement whose workflow stopped is listed at once. At most 100 of each.",
    attentionAnswer,
    [401, 503],
  ),
);

/** The bank files' differences. */
export const differencesReference = op({
  summary: "Differences between the bank's settlement files and the gateway's settlements (operator)",
  description:
    'Recorded when the bank file is reconciled (never overwriting a settlement): a payout missing from the file, one the gateway does not know, another amount or UTR. ?date=yyyy-MM-dd narrows to one file; ?limit (1 to 1000, default 100).',
  example: {},
  responses: {
    200: {
      description: 'the differences, newest first',
      schema: ok(z.object({ differences: z.array(z.object({}).loose()) })),
    },
  },
  errors: [400, 401, 503],
});

/** One settlement by id. */
export const settlementReference = op(
  read(
    'One settlement by id, settlement:<merchantIdentifier>:<yyyy-MM-dd> (operator)',
    'Its state, totals, carried balances, UTR and payout. Unknown settlement: 404, code 2060.',
    ok(settlementRecord),
  ),
  [settlementId],
);
