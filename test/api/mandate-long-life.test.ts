import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import type { BankConnector } from '../../src/bank/connector';
import { mandateWorkflowId } from '../../src/temporal/workflow-ids';
import type { MerchantCredentials } from '../../src/usecases/provision-merchant';
import { startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';
import { createData, istAt, istDate, notifyData, transactU } from '../support/mandates';
import { reportedProblems } from '../support/problems';
import { startTestTemporal } from '../support/servers';

/**
 * The scale: a dev server of this test's own refuses a run's 151st update (Temporal's
 * history.maxTotalUpdates, 2,000 by default), and the gateway continues a mandate's run as new after
 * 100 (MANDATE_UPDATES_PER_RUN, 1,000 by default). The proportions are production's (a run takes at
 * most half of what the server allows); a tenth of the size keeps it to a minute.
 */
const SERVER_UPDATES_LIMIT = 150;
const UPDATES_PER_RUN = 100;
/** More notifies than the server lets one run take: only continue-as-new gets past it. */
const NOTIFIES = 2 * UPDATES_PER_RUN + 10;
/** Merchants notify in parallel; so does this test (the hand-over to a next run happens under load). */
const CONCURRENCY = 8;

/**
 * A mandate that lives for years, on a dev server, where Temporal enforces its per-run limits (the
 * time-skipping test server does not: docs/contributors/tests.md). More notifies than the server
 * lets one run take, through the real API, each answer 1109; the mandate's workflow has continued as
 * new on the way; the payer's revoke still works, and every debit scheduled by any run ends
 * cancelled (1124) without reaching the bank. Each notify is a workflow update with three
 * activities, one of which starts the debit's workflow.
 */
describe(`Mandates: one notified ${NOTIFIES} times, past the server's ${SERVER_UPDATES_LIMIT} updates a run (dev server)`, function () {
  this.timeout(900_000);
  let temporal: Awaited<ReturnType<typeof startTestTemporal>>;
  let gw: TestGateway;
  let merchant: MerchantCredentials;
  const clock = istAt(new Date(), 1, '08:00:00');
  const bankCalls: string[] = [];

  before(async () => {
    temporal = await startTestTemporal([`history.maxTotalUpdates=${SERVER_UPDATES_LIMIT}`]);
    gw = await startTestGateway(
      { SANDBOX_MANDATE_PAYER_SECONDS: '0.1', MANDATE_UPDATES_PER_RUN: String(UPDATES_PER_RUN) },
      {
        temporalAddress: temporal.address,
        now: () => clock,
        activityDeps: (deps) => {
          const bank: BankConnector = Object.create(deps.bank);
          bank.requestPayment = async (r) => {
            bankCalls.push(r.txnId);
            return deps.bank.requestPayment(r);
          };
          return { ...deps, bank };
        },
      },
    );
    merchant = await gw.newMerchant('Daily Milk');
  });
  after(async () => {
    await gw?.stop();
    await temporal?.stop();
  });

  const order = (orderId: string) => ({ merchantIdentifier: merchant.merchantIdentifier, orderId });
  async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('answers 1109 to every notify, continues as new on the way, and the revoke cancels every debit unpaid', async () => {
    const parent = `mandate-${randomBytes(4).toString('hex')}`;
    const created = await transactU(gw.baseUrl, merchant, createData(merchant, { orderId: parent, today: clock }));
    assert.equal(created.json.responseCode, '1101', created.text);
    await until('the payer', async () => (await gw.rt.mandates.findByOrder(order(parent)))?.state === 'ACTIVE', 30_000);

    const executionDate = `${istDate(clock, 2)} 08:00:00`;
    const debits = Array.from({ length: NOTIFIES }, (_, i) => `debit-${i}-${randomBytes(3).toString('hex')}`);
    const answers = new Map<string, string>();
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < NOTIFIES; i = next++) {
          const res = await transactU(gw.baseUrl, merchant, notifyData(merchant, { orderId: debits[i]!, parent, executionDate }));
          const answer = `${res.status} ${res.json?.responseCode ?? res.text}`;
          answers.set(debits[i]!, answer);
          if (answer !== '200 1109') console.error(`      notify ${i + 1}: ${answer}`);
          if ((i + 1) % 100 === 0) console.error(`      ${i + 1} notifies in ${Math.round((Date.now() - started) / 1000)} s`);
        }
      }),
    );
    const refused = [...answers].filter(([, a]) => a !== '200 1109');
    assert.deepEqual(refused.slice(0, 5), [], `${refused.length} of ${NOTIFIES} notifies not answered 1109`);

    // The workflow went on in new runs: Temporal lists every run of the mandate's workflow id.
    const runs: string[] = [];
    const workflowId = mandateWorkflowId(merchant.merchantIdentifier, parent);
    for await (const w of gw.rt.temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(w.status.name);
    console.error(`      ${runs.length} runs of the mandate's workflow`);
    assert.ok(runs.filter((s) => s === 'CONTINUED_AS_NEW').length >= 2, `runs: ${runs.join(', ')}`);
    assert.deepEqual(
      runs.filter((s) => s !== 'CONTINUED_AS_NEW'),
      ['RUNNING'],
    );

    const revoke = await request(`${gw.baseUrl}/sandbox/v1/mandates/revoke`, {
      body: { merchantIdentifier: merchant.merchantIdentifier, orderId: parent },
    });
    assert.deepEqual(revoke.json, { success: true, data: { ...order(parent), state: 'REVOKED' } }, revoke.text);
    const later = await transactU(
      gw.baseUrl,
      merchant,
      notifyData(merchant, { orderId: `debit-late-${randomBytes(3).toString('hex')}`, parent, executionDate }),
    );
    assert.equal(later.json.responseCode, '1114');

    // Every debit, whichever run started it, is cancelled: none stays Pending, none reached the bank.
    const stillPending = async () =>
      (await gw.rt.transactions.findByOrderIds(merchant.merchantIdentifier, debits)).filter((t) => t.status === 'Pending').length;
    await until('every debit to be cancelled', async () => (await stillPending()) === 0, 600_000);
    const ended = await gw.rt.transactions.findByOrderIds(merchant.merchantIdentifier, debits);
    assert.equal(ended.length, NOTIFIES);
    assert.deepEqual([...new Set(ended.map((t) => `${t.status} ${t.responseCode}`))], ['Failure 1124']);
    assert.deepEqual(bankCalls, []);
    // Every workflow of this test's own server (the mandate's runs, its debits): the run's check after
    // each file reads only the worker's shared server.
    assert.deepEqual(await reportedProblems(gw.rt.temporal, undefined, gw.rt.config.temporal.namespace), []);
  });
});
