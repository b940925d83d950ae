import { strict as assert } from 'node:assert';
import { temporal } from '@temporalio/proto';
import { hmacSha256Hex } from '../../src/domain/checksum';
import type { Transaction } from '../../src/domain/transaction';
import { failedTasks } from '../support/money-model/failed-tasks';
import { debitsLawful, webhooksFaithful, type Books } from '../support/money-model/invariants';
import { waitsByDesign } from '../production-stack/waits-by-design';
import type { InvariantScope } from '../support/money-model/scope';
import { notifiedOnce } from '../production-stack/final-check';
import { SimulatorBooks } from '../../src/bank/simulator/books';
import type { SimulatorDesk } from '../../src/bank/simulator/desk';
import { mandateDesk } from '../../src/bank/simulator/mandates';

const Cause = temporal.api.enums.v1.WorkflowTaskFailedCause;

/**
 * The pieces the kill probes' final check adds to the money model's invariants (final-check.ts),
 * on records made up here: each must name the violation it exists for.
 */
describe("the kill probes' final check: each piece catches its violation", () => {
  it('(3) a debit never notified, notified under a second id, or a notification of no accepted debit; a repeat is a retry', () => {
    const books = new SimulatorBooks();
    const desk = mandateDesk({
      books,
      log: () => undefined,
      later: () => undefined,
      notify: () => undefined,
    } as unknown as SimulatorDesk);
    desk.createMandate({
      mandateId: 'm1:mandate',
      merchantIdentifier: 'm1',
      payerVpa: 'success@sandbox',
      callbackUrl: 'http://x/',
    });
    const executeAt = '2026-12-05T08:00:00.000Z';
    const notify = (notificationId: string, amountPaise: number) =>
      desk.notifyDebit('m1:mandate', { notificationId, amountPaise, executeAt });
    const debit = (orderId: string, txnId: string, amountPaise: number) => ({
      orderId,
      txnId,
      mandateOrderId: 'mandate',
      executeAtMs: Date.parse(executeAt),
      amountPaise,
    });
    const debits = [debit('d1', 'T1', 500), debit('d2', 'T2', 600)];
    const check = () => notifiedOnce(books.snapshot('m1'), debits, 'm1');
    notify('T1', 500);
    notify('T1', 500);
    assert.deepEqual(check(), ['(3) debit T2 (order d2) was never notified to the bank']);
    notify('T2', 600);
    assert.deepEqual(check(), [], 'a repeat of T1 under its own id is an idempotent retry');
    notify('T2R', 600);
    notify('T9', 900);
    const found = check().join('\n');
    assert.match(found, /notification T2R of debit T2 \(order d2\) besides T2: two notification ids for one debit/);
    assert.match(found, /notified of debit T9, which the gateway does not hold as a debit it accepted/);
    const early = [{ ...debits[0]!, executeAtMs: Date.parse(executeAt) + 86_400_000 }];
    assert.match(
      notifiedOnce(books.snapshot('m1'), early, 'm1').join(),
      /debit T1 \(order d1, 500 paise at 2026-12-06T08:00:00.000Z\) is notified as ACCEPTED m1:mandate 500 paise at 2026-12-05/,
    );
  });

  it('(3) a debit the bank approved twice, for another amount, or that the gateway does not hold executed', () => {
    const scope = {
      merchant: { merchantIdentifier: 'm1' },
      mandates: [{ orderId: 'mandate' }],
      debits: [{ orderId: 'd1', mandateOrderId: 'mandate', txnId: 'T1', executeAtMs: 0 }],
      stack: { debitBookedAt: new Map() },
    } as unknown as InvariantScope;
    const attempt = (debitId: string, status: string, amountPaise = 500) => ({
      mandateId: 'm1:mandate',
      request: { debitId, merchantIdentifier: 'm1', amountPaise, callbackUrl: 'http://x' },
      answer: { debitId, status },
      requests: 1,
    });
    const books = (...debits: ReturnType<typeof attempt>[]) => ({ debits }) as unknown as Books;
    const executed = new Map([['T1', { txnId: 'T1', amountPaise: 500, status: 'Success', responseCode: '1111' } as Transaction]]);
    assert.deepEqual(debitsLawful(scope, books(attempt('T1', 'DECLINED'), attempt('T1R1', 'APPROVED')), executed), []);
    const twice = debitsLawful(scope, books(attempt('T1', 'APPROVED'), attempt('T1R1', 'APPROVED')), executed).join('\n');
    assert.match(twice, /debit T1 \(order d1\): the bank approved 2 attempts \(T1, T1R1\)/);
    const amount = debitsLawful(scope, books(attempt('T1R2', 'APPROVED', 700)), executed).join('\n');
    assert.match(amount, /approved T1R2 for 700 paise, the debit is 500/);
    const failed = new Map([['T1', { ...executed.get('T1')!, status: 'Failure', responseCode: '1112' } as Transaction]]);
    assert.match(debitsLawful(scope, books(attempt('T1', 'APPROVED')), failed).join(), /the gateway holds Failure 1112/);
  });

  it("a workflow's failed tasks by cause; a real cluster's benign causes left out only when asked", () => {
    const failed = (cause: number, message?: string) => ({
      workflowTaskFailedEventAttributes: { cause, ...(message ? { failure: { message } } : {}) },
    });
    const history = {
      events: [
        failed(Cause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND),
        failed(Cause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR, 'nondeterminism'),
      ],
    };
    assert.deepEqual(failedTasks(history, true), ['NON_DETERMINISTIC_ERROR (nondeterminism)']);
    assert.deepEqual(failedTasks(history, false), ['UNHANDLED_COMMAND', 'NON_DETERMINISTIC_ERROR (nondeterminism)']);
  });

  it('(4) form bodies: a verified call announces its order; a body not in the chosen format is named', () => {
    const txnData = JSON.stringify({ txns: [{ orderId: 'o1', responseCode: '100' }] });
    const calls: InvariantScope['stack']['receiver']['calls'] = [];
    const scope = {
      merchant: { merchantIdentifier: 'm1' },
      keys: [{ secretKey: 'key', since: 0, requestedAt: 0 }],
      webhookFormat: 'form',
      stack: { receiver: { calls } },
    } as unknown as InvariantScope;
    const stored = new Map([['T1', { txnId: 'T1', orderId: 'o1', status: 'Success', responseCode: '100' } as Transaction]]);
    const call = (body: string) => ({ url: '/hooks/payments/m1', receivedAt: 1, headers: { 'x-webhook-id': 'rt:m1:o1' }, body });
    assert.match(webhooksFaithful(scope, stored).join(), /order o1 ended Success 100 .*the receiver got \[\]/);
    calls.push(call(new URLSearchParams({ txnData, checksum: hmacSha256Hex('key', txnData) }).toString()));
    assert.deepEqual(webhooksFaithful(scope, stored), []);
    calls.push(call(JSON.stringify({ txnData, checksum: hmacSha256Hex('key', txnData) })));
    assert.match(webhooksFaithful(scope, stored).join(), /is not the form the merchant chose/);
  });

  it('(4) a webhook contradicting the final code, or announcing an order the gateway does not hold', () => {
    const calls: InvariantScope['stack']['receiver']['calls'] = [];
    const scope = {
      merchant: { merchantIdentifier: 'm1' },
      keys: [{ secretKey: 'key', since: 0, requestedAt: 0 }],
      stack: { receiver: { calls } },
    } as unknown as InvariantScope;
    const hook = (orderId: string, responseCode: string) => {
      const txnData = JSON.stringify({ txns: [{ orderId, responseCode }] });
      const headers = { 'x-webhook-id': `rt:m1:${orderId}:${responseCode}` };
      calls.push({
        url: '/hooks/payments/m1',
        receivedAt: 1,
        headers,
        body: JSON.stringify({ txnData, checksum: hmacSha256Hex('key', txnData) }),
      });
    };
    const stored = new Map([
      ['T1', { txnId: 'T1', orderId: 'o1', status: 'Failure', responseCode: '401', refunds: [] } as unknown as Transaction],
      ['T2', { txnId: 'T2', orderId: 'o2', status: 'Success', responseCode: '100', refunds: [] } as unknown as Transaction],
    ]);
    hook('o1', '208');
    hook('o1', '401');
    hook('o2', '183');
    hook('o2', '100');
    assert.deepEqual(webhooksFaithful(scope, stored), [], 'a pending before the end, a delayed success after a 183');
    hook('o1', '100');
    hook('o9', '100');
    const found = webhooksFaithful(scope, stored).join('\n');
    assert.match(found, /order o1 ended Failure 401 \(published 401\), yet the receiver also heard \["100"\]/);
    assert.match(found, /the receiver heard of order o9, which the gateway does not hold/);
    stored.set('T3', {
      txnId: 'T3',
      orderId: 'o3',
      status: 'Pending',
      responseCode: '208',
      refunds: [],
    } as unknown as Transaction);
    hook('o3', '208');
    assert.doesNotMatch(webhooksFaithful(scope, stored).join('\n'), /o3/, 'a pending order heard as pending');
    hook('o3', '1111');
    assert.match(webhooksFaithful(scope, stored).join('\n'), /order o3 is still Pending, yet the receiver heard \["1111"\]/);
  });
});

describe("the kill probes' final check: what waits by design", () => {
  it('excuses a Pending checkout before its deadline only when it never reached the bank', () => {
    const now = Date.parse('2026-12-04T00:00:00Z');
    const checkout = (txnId: string, orderId: string, deadline: number) =>
      ({ txnId, orderId, status: 'Pending', payerDeadline: new Date(deadline) }) as Transaction;
    const books = { payments: [{ request: { txnId: 'T2', orderId: 'o2' } }] } as unknown as Pick<Books, 'payments'>;
    const waits = waitsByDesign(books, now);
    assert.equal(waits(checkout('T1', 'o1', now + 60_000)), true, 'never at the bank, before its deadline');
    assert.equal(waits(checkout('T2', 'o2', now + 60_000)), false, 'its request reached the bank');
    assert.equal(waits(checkout('T3', 'o3', now - 1)), false, 'past its deadline');
    const debit = { txnId: 'T4', orderId: 'o4', status: 'Pending', executeAt: new Date(now + 1) } as Transaction;
    assert.equal(waits(debit), true, 'a debit before its executionDate');
  });
});
