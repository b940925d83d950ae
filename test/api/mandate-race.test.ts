import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { BankConnector } from '../../src/bank/connector';
import type { MandateRepository } from '../../src/store/mandate-repository';
import type { TransactionRepository } from '../../src/store/transaction-repository';
import { mandateWorkflowId } from '../../src/temporal/workflow-ids';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { createData, istAt, istDate, notifyData, transactU } from '../support/mandates';
import { reportedProblems } from '../support/problems';

type Gate = { arrived: Promise<void>; reached: () => void; release: () => void; released: Promise<void> };

/**
 * Over the API, on the dev server: a mandate whose first debit fails (debitfail@sandbox) while
 * notifies are under way. The activities' writes are held at chosen points (the first debit at the
 * bank, each notify's debit just stored, INACTIVE just stored) and let go together, so their
 * completions reach the mandate in the same workflow task or one after another. Whatever the order,
 * no workflow task fails, every notify is answered 1109, each of its debits ends cancelled (1124)
 * without reaching the bank, and the mandate ends INACTIVE.
 */
describe('Mandates: notifies racing a failing first debit, over the API', function () {
  this.timeout(120_000);
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  const clock = istAt(new Date(), 1, '08:00:00');
  const gates = new Map<string, Gate>();
  const bankCalls: string[] = [];

  function hold(key: string): Gate {
    let reached!: () => void;
    let release!: () => void;
    const gate = {
      arrived: new Promise<void>((r) => (reached = r)),
      released: new Promise<void>((r) => (release = r)),
      reached: () => reached(),
      release: () => release(),
    };
    gates.set(key, gate);
    return gate;
  }
  async function pass(key: string): Promise<void> {
    const gate = gates.get(key);
    if (!gate) return;
    gate.reached();
    await gate.released;
  }

  before(async () => {
    gw = await startTestGateway(
      { SANDBOX_MANDATE_PAYER_SECONDS: '0.1' },
      {
        now: () => clock,
        activityDeps: (deps) => {
          const bank: BankConnector = Object.create(deps.bank);
          bank.requestPayment = async (r) => {
            bankCalls.push(r.txnId);
            if (r.instrument.kind === 'UPI_MANDATE') await pass(`bank:${r.instrument.mandateOrderId}`);
            return deps.bank.requestPayment(r);
          };
          const transactions: TransactionRepository = Object.create(deps.transactions);
          transactions.createPending = async (t) => {
            const created = await deps.transactions.createPending(t);
            await pass(`create:${t.orderId}`);
            return created;
          };
          const mandates: MandateRepository = Object.create(deps.mandates);
          mandates.setState = async (order, state, from, at) => {
            const moved = await deps.mandates.setState(order, state, from, at);
            await pass(`state:${order.orderId}:${state}`);
            return moved;
          };
          return { ...deps, bank, transactions, mandates };
        },
      },
    );
    merchant = await gw.newMerchant('Race Dairy');
  });
  after(() => gw?.stop());

  const NOTIFIES = 4;

  async function race(release: 'all at once' | 'the end first') {
    const orderId = `race-${randomBytes(4).toString('hex')}`;
    const firstDebit = hold(`bank:${orderId}`);
    const ended = hold(`state:${orderId}:INACTIVE`);
    const created = await transactU(
      gw.baseUrl,
      merchant,
      createData(merchant, { orderId, today: clock, payer: 'debitfail@sandbox', firstDebit: true, firstDebitAmount: 10_000 }),
    );
    assert.equal(created.json.responseCode, '1101', created.text);
    await firstDebit.arrived; // approved, ACTIVE, the first debit at the bank

    const debits = Array.from({ length: NOTIFIES }, () => `race-debit-${randomBytes(4).toString('hex')}`);
    const stored = debits.map((d) => hold(`create:${d}`));
    const answers = debits.map((d) =>
      transactU(
        gw.baseUrl,
        merchant,
        notifyData(merchant, {
          orderId: d,
          parent: orderId,
          executionDate: `${istDate(clock, 2)} 08:00:00`,
          payer: 'debitfail@sandbox',
        }),
      ),
    );
    await Promise.all(stored.map((g) => g.arrived)); // every notify's debit is stored, its completion held

    firstDebit.release();
    await ended.arrived; // the first debit failed; INACTIVE is stored, its completion held
    if (release === 'the end first') {
      ended.release();
      await new Promise((r) => setTimeout(r, 300));
      stored.forEach((g) => g.release());
    } else {
      [ended, ...stored].forEach((g) => g.release());
    }

    const handle = gw.rt.temporal.workflow.getHandle(mandateWorkflowId(merchant.merchantIdentifier, orderId));
    const outcome = await Promise.race([
      handle.result(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the mandate never ended')), 20_000)),
    ]);
    const failedTasks = ((await handle.fetchHistory()).events ?? []).filter((e) => e.workflowTaskFailedEventAttributes);
    assert.deepEqual(
      failedTasks.map((e) => e.workflowTaskFailedEventAttributes?.failure?.message),
      [],
      'no failed workflow task',
    );
    assert.equal(outcome.state, 'INACTIVE');
    assert.deepEqual(
      (await Promise.all(answers)).map((a) => a.json.responseCode),
      debits.map(() => '1109'),
    );
    for (const d of debits) {
      const t = await gw.rt.transactions.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId: d });
      assert.deepEqual([t?.status, t?.responseCode], ['Failure', '1124'], `${d} is cancelled`);
      assert.ok(!bankCalls.includes(t!.txnId), `${d} never reached the bank`);
    }
    assert.equal(
      (await gw.rt.mandates.findByOrder({ merchantIdentifier: merchant.merchantIdentifier, orderId }))?.state,
      'INACTIVE',
    );
  }

  it(`${NOTIFIES} notifies stored as the first debit fails, let go at once, 3 times`, async () => {
    for (let i = 0; i < 3; i++) await race('all at once');
  });

  it(`${NOTIFIES} notifies stored as the first debit fails, let go after the end, twice`, async () => {
    for (let i = 0; i < 2; i++) await race('the end first');
  });

  it("no workflow of this gateway's merchant reports problems", async () => {
    assert.deepEqual(
      await reportedProblems(gw.rt.temporal, `MerchantId = '${merchant.merchantIdentifier}'`, gw.rt.config.temporal.namespace),
      [],
    );
  });
});
