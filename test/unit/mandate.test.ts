import { strict as assert } from 'node:assert';
import { formatIstDateTime, istStartOfDay, parseIstDateTime } from '../../src/domain/ist-time';
import { MandateResponse, mandateStatusView, notifyParentProblem, type MandateState } from '../../src/domain/mandate';
import { IOS_UPI_APPS, mandateIntentUrls } from '../../src/domain/mandate-intent';
import { firstDebitOrderIdOf, firstDebitOrderIds } from '../../src/domain/mandate-first-debit';
import { ORDER_ID_PATTERN } from '../../src/domain/identifiers';
import { sandboxMandatePayer } from '../../src/domain/sandbox-bank';

describe('mandate rules', () => {
  it('notify needs an ACTIVE Adhoc parent: each other case has its own code', () => {
    assert.equal(notifyParentProblem({ state: 'ACTIVE', frequency: 'Adhoc' }), null);
    assert.equal(notifyParentProblem({ state: 'ACTIVE', frequency: 'Monthly' }), 'notAdhoc');
    assert.equal(notifyParentProblem({ state: 'INACTIVE', frequency: 'Adhoc' }), 'inactive');
    for (const state of ['CREATED', 'DECLINED', 'REVOKED', 'EXPIRED'] as MandateState[]) {
      assert.equal(notifyParentProblem({ state, frequency: 'Adhoc' }), 'parentNotActive', state);
    }
  });

  it('the status API view of each state: Pending while the payer decides, Success while ACTIVE, Failure after', () => {
    const views = (['CREATED', 'ACTIVE', 'DECLINED', 'INACTIVE', 'REVOKED', 'EXPIRED'] as MandateState[]).map((s) => {
      const v = mandateStatusView(s);
      return [s, v.txnStatus, v.code];
    });
    assert.deepEqual(views, [
      ['CREATED', '2', '1101'],
      ['ACTIVE', '0', '1101'],
      ['DECLINED', '1', '1125'],
      ['INACTIVE', '1', '1117'],
      ['REVOKED', '1', '1126'],
      ['EXPIRED', '1', '1127'],
    ]);
  });

  it('every response code is distinct, and the contract keeps its own', () => {
    const codes = Object.values(MandateResponse).map((r) => r.code);
    assert.equal(new Set(codes).size, codes.length);
    const c = MandateResponse;
    assert.deepEqual(
      [c.created, c.notified, c.notifyFailed, c.executed, c.executionFailed, c.inactive, c.peakTime].map((r) => r.code),
      ['1101', '1109', '1110', '1111', '1112', '1117', '1118'],
    );
  });

  it('sandbox mandate payers: approve, decline, failing debits, refused notifies; anyone else declines', () => {
    assert.deepEqual(sandboxMandatePayer('success@sandbox'), { approves: true, acceptsNotify: true, debits: 'pay' });
    assert.equal(sandboxMandatePayer('failure@sandbox').approves, false);
    assert.equal(sandboxMandatePayer('debitfail@sandbox').debits, 'decline');
    assert.equal(sandboxMandatePayer('notifyfail@sandbox').acceptsNotify, false);
    assert.equal(sandboxMandatePayer('someone@okbank').approves, false);
  });

  it("a first debit's orderIds: <orderId>-first while it fits the status API's orderId rules, then <txnid>-first", () => {
    const txnId = 'MWU2U8G025EED000AE3D';
    assert.deepEqual(firstDebitOrderIds('m-1', txnId), ['m-1-first', `${txnId}-first`]);
    const longest = 'a'.repeat(58);
    assert.deepEqual(firstDebitOrderIds(longest, txnId), [`${longest}-first`, `${txnId}-first`]);
    assert.deepEqual(firstDebitOrderIds(`${longest}b`, txnId), [`${txnId}-first`]);
    for (const id of [...firstDebitOrderIds(longest, txnId), ...firstDebitOrderIds('a'.repeat(64), txnId)]) {
      assert.match(id, ORDER_ID_PATTERN);
    }
    // Mandates stored before the first debit's orderId was kept had <orderId>-first.
    assert.equal(firstDebitOrderIdOf({ orderId: 'old' }), 'old-first');
    assert.equal(firstDebitOrderIdOf({ orderId: 'new', firstDebitOrderId: `${txnId}-first` }), `${txnId}-first`);
  });
});

describe('mandate intents', () => {
  const urls = mandateIntentUrls({
    payeeVpa: 'gateway@sandbox',
    payeeName: 'Milk & Co',
    maxAmountPaise: 500_005,
    txnId: 'TXN1',
    note: 'milk/month',
    frequency: 'Adhoc',
    validityStart: '23112026',
    validityEnd: '23112027',
  });

  it('an upi://mandate link with every value percent-encoded, amounts in rupees, Adhoc as ASPRESENTED', () => {
    const u = new URL(urls.androidIntentUrl);
    assert.equal(u.protocol, 'upi:');
    assert.match(urls.androidIntentUrl, /pn=Milk%20%26%20Co&/);
    assert.equal(u.searchParams.get('am'), '5000.05');
    assert.equal(u.searchParams.get('mam'), '5000.05');
    assert.equal(u.searchParams.get('amrule'), 'MAX');
    assert.equal(u.searchParams.get('recur'), 'ASPRESENTED');
    assert.equal(u.searchParams.get('tn'), 'milk/month');
    assert.equal(u.searchParams.get('validityend'), '23112027');
  });

  it('four iOS app links with the same query', () => {
    const query = urls.androidIntentUrl.split('?')[1];
    assert.deepEqual(
      IOS_UPI_APPS.map((a) => urls[a.field]),
      IOS_UPI_APPS.map((a) => `${a.scheme}?${query}`),
    );
  });
});

describe('IST dates of mandates', () => {
  it('reads yyyy-MM-dd with or without zero padding, and a time; refuses what does not exist', () => {
    assert.equal(formatIstDateTime(parseIstDateTime('2026-1-5')!), '2026-01-05 00:00:00');
    assert.equal(formatIstDateTime(parseIstDateTime('2026-11-23 21:30:00')!), '2026-11-23 21:30:00');
    assert.equal(parseIstDateTime('2026-02-30'), null);
    assert.equal(parseIstDateTime('2026-11-23 24:00:00'), null);
    assert.equal(parseIstDateTime('2026-11-23T08:00:00'), null);
  });

  it('the IST day starts at 18:30 UTC the evening before', () => {
    assert.equal(istStartOfDay(new Date('2026-11-22T19:00:00Z')).toISOString(), '2026-11-22T18:30:00.000Z');
    assert.equal(istStartOfDay(new Date('2026-11-22T18:29:59Z')).toISOString(), '2026-11-21T18:30:00.000Z');
  });
});
