import type { MandateFrequency, MandateState } from '../domain/mandate';

/*
 * The mandate workflow's contract (workflows/mandate.ts): its type name, what it is started with,
 * what it ends with, and the failure types it and its activities end with. Its updates and queries
 * are in mandate-messages.ts, its id in workflow-ids.ts.
 */

export const MANDATE_WORKFLOW_TYPE = 'mandateWorkflow';

export interface MandateWorkflowInput {
  merchantIdentifier: string;
  orderId: string;
  txnId: string;
  payerVpa: string;
  frequency: MandateFrequency;
  /** IST midnight after endDate, ms since the epoch: the mandate expires then. */
  validUntilMs: number;
  productDescription: string;
  firstDebit: { orderId: string; txnId: string; amountPaise: number } | null;
  /** How long the sandbox payer takes to answer the approval request. */
  payerAnswerDelayMs: number;
  /** Between a failed debit attempt and its retry. */
  debitRetryIntervalMs: number;
  /** false only where the point is not the webhook (workflow tests); absent means send it. */
  realtimeWebhook?: boolean;
  /**
   * A run continues as new after handling this many updates: set at creation (MANDATE_UPDATES_PER_RUN,
   * lower in tests) and handed on, so a run never changes its mind on replay. Absent on older runs.
   */
  updatesPerRun?: number;
  /** Set by continue-as-new: this run goes on with an ACTIVE mandate from where the last one stopped. */
  carried?: CarriedMandate;
}

/** What one run hands to the next when it continues as new (the mandate is ACTIVE, in the store too). */
export interface CarriedMandate {
  /** The orderIds of debits earlier runs started that may still run (their transaction was Pending). */
  pendingDebitOrderIds: string[];
  /** Runs before this one, and notifies they scheduled: for operators reading the input in Temporal UI. */
  runsBefore: number;
  notifiesBefore: number;
}

export interface MandateWorkflowResult {
  state: MandateState;
  debits: string[];
}

/** The workflow's signature, for a typed start by name. */
export type MandateWorkflow = (input: MandateWorkflowInput) => Promise<MandateWorkflowResult>;

/** Failure types of the mandate's updates and of its debits' activities (ApplicationFailure types). */
export const MandateFailure = {
  /** An update refused while the run hands over to its next one: send it again, the next run takes it. */
  CONTINUING_AS_NEW: 'MandateContinuingAsNew',
  /** An update refused because the mandate is INACTIVE (answered with the `inactive` response). */
  INACTIVE: 'MandateInactive',
  /** An update refused because the mandate is not ACTIVE (answered with `parentNotActive`). */
  NOT_ACTIVE: 'MandateNotActive',
  /** A debit attempt inside the peak window: retried when the window ends. */
  PEAK_WINDOW: 'MandateDebitPeakWindow',
  /** A revoke waits while a debit attempt is still at the bank: retried shortly. */
  DEBIT_AT_BANK: 'MandateDebitAtBank',
} as const;

/**
 * The refusal types a worker of the previous release throws (before the names above): read as the
 * new ones, so an API that is deployed before its workers still recognises them.
 */
const PREVIOUS_NAMES: Record<string, string> = {
  continuingAsNew: MandateFailure.CONTINUING_AS_NEW,
  inactive: MandateFailure.INACTIVE,
  parentNotActive: MandateFailure.NOT_ACTIVE,
};

/** A mandate update's refusal type, in today's names. */
export const mandateRefusal = (type: string | undefined) => (type === undefined ? undefined : (PREVIOUS_NAMES[type] ?? type));
