import type { Checkout } from '../../domain/checkout';
import type { PaymentInstrument } from '../../domain/instrument';
import type { MandateState } from '../../domain/mandate';
import type { OrderRef } from '../../domain/order-ref';
import type { StatusOrderRecord } from '../../domain/status-record';
import type { PaymentRequest, Transaction } from '../../domain/transaction';

export type SandboxPaymentResult =
  | { kind: 'started' | 'existing' | 'conflict'; transaction: Transaction }
  /** The orderId is held by an order of another collection (a mandate, a mandate's first debit to come). */
  | { kind: 'taken'; txnId: string };

export type SandboxQrPayResult = { kind: 'accepted' | 'notQr' | 'notOpen'; transaction: Transaction } | { kind: 'unknownOrder' };

export type SandboxRevokeResult = { kind: 'unknownMandate' } | { kind: 'notActive' | 'ended'; state: MandateState };

/** Where time travel is asked to go: forward by a span, or to an instant. */
export type TimeSkipTarget = { byMs: number } | { to: Date };

export type TimeSkipResult =
  | { kind: 'skipped'; from: Date; to: Date }
  | { kind: 'notAhead'; now: Date }
  /** Workflows were still busy at the deadline: before the skip (`moving` false), or after it began. */
  | { kind: 'stillBusy'; moving: boolean; now: Date; busyWorkflowIds: string[] };

/**
 * What the sandbox audience's operations may ask of the application: each use case bound at start-up
 * (src/main/use-cases/sandbox.ts) to the store, Temporal and the bank. Types come from src/domain only,
 * so nothing here (nor any route that uses it) reaches the store or Temporal.
 */
export interface SandboxUseCases {
  /** Records the order Pending and starts its payment workflow (idempotent). */
  startPayment(request: PaymentRequest): Promise<SandboxPaymentResult>;
  /** The order an orderId names, as the status API shows it. */
  readOrder(order: OrderRef): Promise<StatusOrderRecord | null>;
  /** The hosted checkout of an order, if it has one. */
  checkoutOfOrder(order: OrderRef): Promise<Checkout | null>;
  /** The payer scans an open QR (a dynamic QR's, or a hosted checkout's with `checkout`) and pays. */
  payQr(order: OrderRef, payer: PaymentInstrument, o: { checkout: boolean }): Promise<SandboxQrPayResult>;
  /** The payer revokes an ACTIVE mandate. */
  revokeMandate(order: OrderRef): Promise<SandboxRevokeResult>;
  /** Time-skipping mode only (absent otherwise): the test server's time, which every clock of the gateway reads. */
  now?: () => Date;
  /** Time-skipping mode only (absent otherwise): moves the test server's time forward, every timer due firing in order. */
  skip?: (target: TimeSkipTarget) => Promise<TimeSkipResult>;
}
