import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { SettlementState } from '../domain/settlement';
import type { ClaimCursor } from '../store/settlement-claim-repository';

/*
 * The settlement workflows' contract (workflows/settlement.ts): ids, inputs and messages, apart
 * from the workflows so the ops API and the activities that start or signal them need not import
 * workflow code.
 */

export { settlementId as settlementWorkflowId } from '../domain/settlement';

/** One merchant's settlement of one date (`settlement:<merchantIdentifier>:<yyyy-MM-dd>`). */
export interface SettlementWorkflowInput {
  merchantIdentifier: string;
  /** The settlement (UTR) date, IST, `yyyy-MM-dd`. */
  settlementDate: string;
  /** Set by the run itself when it continues as new while claiming: the phase and cursor it goes on from. */
  claim?: { phase: 'sales' | 'adjustments'; cursor: ClaimCursor | null };
}

/** What the workflow did: its final state and net (paise), or `held` while it waits. */
export interface SettlementWorkflowResult {
  settlementId: string;
  state: SettlementState;
  netPaise: number;
  utr: string | null;
}

/** The operator released the merchant's settlements (POST /ops/v1/merchants/:id/settlements/release). */
export const releaseSettlementSignal = defineSignal('releaseSettlement');

/** The workflow's state as it runs: `held` while it waits for a release. */
export const settlementStateQuery = defineQuery<string>('settlementState');

/** The daily starter (`settlement-day:<date>`): one settlement per merchant with something due. */
export interface SettlementDayInput {
  /** The settlement date; absent (the schedule): today's IST date when the run starts. */
  settlementDate?: string;
  /** Set by the run itself when it continues as new: where it stopped and what it did so far. */
  carried?: SettlementDayProgress;
}

/** How far a daily run went: the last merchant it walked past, its starts and failures. */
export interface SettlementDayProgress {
  after: string | null;
  started: number;
  alreadyStarted: number;
  /** Merchants whose start failed after its retries (the first 100; failedCount counts them all). */
  failed: { merchantIdentifier: string; reason: string }[];
  failedCount: number;
}

export const SETTLEMENT_WORKFLOW_TYPE = 'settlementWorkflow';

/** The settlement workflow's signature, for a typed start by name. */
export type SettlementWorkflow = (input: SettlementWorkflowInput) => Promise<SettlementWorkflowResult>;

export const SETTLEMENT_SCHEDULE_ID = 'settlement:daily';
export const SETTLEMENT_DAY_WORKFLOW_TYPE = 'settlementDayWorkflow';

/** The daily starter's signature, for a typed schedule by name (its result is not read). */
export type SettlementDayWorkflow = (input: SettlementDayInput) => Promise<unknown>;

/** How long a settlement waits before asking the bank again about a PENDING payout. */
export const PAYOUT_INQUIRY_INTERVAL = '10 minutes';

/**
 * Inquiries of a PENDING payout per run (a day at PAYOUT_INQUIRY_INTERVAL) before the run continues
 * as new: a payout awaited for weeks keeps a bounded history. The continued run asks the bank again
 * with the stored request (idempotent), then inquires on.
 */
export const PAYOUT_INQUIRIES_PER_RUN = 144;

/**
 * Claim pages per run before it continues as new, carrying the phase and cursor: about six
 * history events a page, so a run stays near 3,000 events whatever the day's volume.
 */
export const CLAIM_PAGES_PER_RUN = 500;

/** Claims and lines per activity call: a 100,000-payment day is 100 calls, never 100,000 lines in history. */
export const SETTLEMENT_PAGE_SIZE = 1000;

/** Attempts the daily run gives one merchant's start before reporting it (and listing it as not started). */
export const SETTLEMENT_START_ATTEMPTS = 5;

/** The check of the bank's settlement file of one payout date (`settlement-file:daily`, or an operator's date). */
export interface SettlementFileInput {
  /** The payout date, IST `yyyy-MM-dd`; absent (the schedule): the day before the run's IST date. */
  date?: string;
}

export const SETTLEMENT_FILE_WORKFLOW_TYPE = 'settlementFileWorkflow';
export const SETTLEMENT_FILE_SCHEDULE_ID = 'settlement-file:daily';

/** The file check's signature, for a typed schedule by name. */
export type SettlementFileWorkflow = (input: SettlementFileInput) => Promise<unknown>;

/** Attempts to read and compare a file before the check is recorded as failed (and listed by needs attention). */
export const SETTLEMENT_FILE_ATTEMPTS = 8;

/**
 * The (retryable) failure type of a settlement file the bank does not have (404): not available
 * yet, never an empty file. After its attempts the check is recorded failed with `file_missing`.
 */
export const SETTLEMENT_FILE_MISSING = 'BankSettlementFileMissing';
