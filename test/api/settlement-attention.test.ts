import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createSettlementActivities } from '../../activities/settlement-activities';
import { startFerretdb } from '../../src/devstack/ferretdb';
import { freePort } from '../../src/devstack/process';
import { istDate } from '../../src/domain/ist-time';
import { addDays } from '../../src/domain/settlement-calendar';
import { bankConnector } from '../../src/main/runtime';
import { settlementActivityDeps } from '../../src/main/settlement-runtime';
import { settlementStateQuery } from '../../src/temporal/settlement-contract';
import { sharedGateway, startTestGateway, type TestGateway } from '../support/gateway';
import { request } from '../support/http';

const DAY = 86_400_000;

/**
 * A settlement that cannot finish is never silent and is run again: needs attention lists it with
 * its reason (ops API and the metrics gauge), the operator's run command and the daily run's
 * start of the merchant start its workflow again, and a date not yet closed is refused.
 */
describe('Settlements: needs attention and re-runs', function () {
  this.timeout(90_000);
  let gw: TestGateway;
  let base: string;
  let auth: Record<string, string>;

  before(async () => {
    gw = await sharedGateway();
    base = `${gw.baseUrl}/ops/v1`;
    auth = { authorization: `Bearer ${gw.rt.config.secrets.opsToken}` };
  });

  async function newMerchant() {
    const res = await request(`${base}/merchants`, { body: { name: 'Stuck Stores' }, headers: auth });
    assert.equal(res.status, 201, res.text);
    return res.json.data.merchantIdentifier as string;
  }

  const settlementsColl = () => gw.rt.store.db.collection<{ _id: string; state: string }>('settlements');

  /**
   * A settlement whose workflow was terminated while it waited: created `ageDays` ago (as the
   * engine would have left it), the merchant held so its run waits, then terminated by an operator.
   */
  async function terminatedSettlement(merchant: string, date: string, ageDays: number) {
    const id = `settlement:${merchant}:${date}`;
    await settlementsColl().insertOne({
      _id: id,
      merchantIdentifier: merchant,
      settlementDate: date,
      state: 'open',
      lineCount: 0,
      grossPaise: 0,
      refundsPaise: 0,
      chargebacksPaise: 0,
      feePaise: 0,
      taxPaise: 0,
      carriedInPaise: 0,
      netPaise: 0,
      carriedOutPaise: 0,
      createdAt: new Date(gw.rt.now().getTime() - ageDays * DAY),
    } as never);
    const hold = await request(`${base}/merchants/${merchant}/settlements/hold`, { method: 'POST', headers: auth });
    assert.equal(hold.status, 200, hold.text);
    const run = await request(`${base}/merchants/${merchant}/settlements/run`, { body: { date }, headers: auth });
    assert.equal(run.status, 200, run.text);
    assert.equal(run.json.data.outcome, 'started');
    const handle = gw.rt.temporal.workflow.getHandle(id);
    await until(async () => (await handle.query(settlementStateQuery)) === 'held');
    await handle.terminate('an operator stopped it');
    await request(`${base}/merchants/${merchant}/settlements/release`, { method: 'POST', headers: auth });
    return id;
  }

  async function until(check: () => Promise<boolean>, ms = 20_000) {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) assert.fail('timed out waiting');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const unfinished = async () =>
    (await request(`${base}/settlements/needs-attention`, { headers: auth })).json.data.unfinished as {
      _id: string;
      reason: string;
      workflow: string;
    }[];

  it('a terminated settlement is listed with its reason and in the gauge; the run command runs it again, once', async () => {
    const merchant = await newMerchant();
    const id = await terminatedSettlement(merchant, '2026-11-24', 8);
    const listed = (await unfinished()).find((u) => u._id === id);
    assert.deepEqual([listed?.reason, listed?.workflow], ['workflow_terminated', 'TERMINATED']);
    const metrics = await request(`${gw.baseUrl}/metrics`, { headers: auth });
    const gauge = /^settlements_needing_attention\{reason="workflow_terminated"\} (\d+)$/m.exec(metrics.text);
    assert.ok(gauge && Number(gauge[1]) >= 1, 'the gauge counts it');

    const again = await request(`${base}/merchants/${merchant}/settlements/run`, { body: { date: '2026-11-24' }, headers: auth });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.json.data.outcome, 'started', 'a terminated run is started again');
    await gw.rt.temporal.workflow.getHandle(id).result();
    assert.equal((await settlementsColl().findOne({ _id: id }))?.state, 'carried_forward', 'nothing was due: carried');
    assert.ok(!(await unfinished()).some((u) => u._id === id), 'no longer listed');
    const third = await request(`${base}/merchants/${merchant}/settlements/run`, { body: { date: '2026-11-24' }, headers: auth });
    assert.deepEqual(
      [third.json.data.outcome, third.json.data.state, third.json.data.settlementId],
      ['already_completed', 'carried_forward', id],
    );
  });

  it('a settlement whose workflow stopped 10 minutes after opening is listed at once with its reason, within its state time', async () => {
    const merchant = await newMerchant();
    const id = await terminatedSettlement(merchant, '2026-11-20', 10 / 1440);
    // The run stopped while the merchant was held: the settlement is `held`, well within its held time.
    assert.equal((await settlementsColl().findOne({ _id: id }))?.state, 'held');
    let listed: { reason: string; workflow: string } | undefined;
    await until(async () => !!(listed = (await unfinished()).find((u) => u._id === id)), 10_000);
    assert.deepEqual([listed?.reason, listed?.workflow], ['workflow_terminated', 'TERMINATED']);
    const metrics = await request(`${gw.baseUrl}/metrics`, { headers: auth });
    const gauge = /^settlements_needing_attention\{reason="workflow_terminated"\} (\d+)$/m.exec(metrics.text);
    assert.ok(gauge && Number(gauge[1]) >= 1, 'the gauge counts it');
    // Run again, it finishes: listed no more, though Temporal still lists the stopped run.
    const again = await request(`${base}/merchants/${merchant}/settlements/run`, { body: { date: '2026-11-20' }, headers: auth });
    assert.equal(again.json.data.outcome, 'started');
    await gw.rt.temporal.workflow.getHandle(id).result();
    assert.ok(!(await unfinished()).some((u) => u._id === id));
  });

  it("the next daily run's start of the merchant runs its terminated settlement again", async () => {
    const merchant = await newMerchant();
    const id = await terminatedSettlement(merchant, '2026-11-23', 9);
    const activities = createSettlementActivities(settlementActivityDeps(gw.rt, bankConnector(gw.rt.config)));
    const outcome = await activities.startMerchantSettlement({ merchantIdentifier: merchant, settlementDate: '2026-11-25' });
    assert.equal(outcome, 'started');
    await gw.rt.temporal.workflow.getHandle(id).result();
    assert.equal((await settlementsColl().findOne({ _id: id }))?.state, 'carried_forward');
  });

  it('a settlement left open with no workflow is listed; the run command answers already running for a running one', async () => {
    const merchant = await newMerchant();
    const id = `settlement:${merchant}:2026-11-20`;
    await settlementsColl().insertOne({
      _id: id,
      merchantIdentifier: merchant,
      settlementDate: '2026-11-20',
      state: 'open',
      netPaise: 0,
      createdAt: new Date(gw.rt.now().getTime() - 3 * 3_600_000),
    } as never);
    const listed = (await unfinished()).find((u) => u._id === id);
    assert.deepEqual([listed?.reason, listed?.workflow], ['workflow_not_running', 'NOT_FOUND']);

    const held = await newMerchant();
    await request(`${base}/merchants/${held}/settlements/hold`, { method: 'POST', headers: auth });
    const first = await request(`${base}/merchants/${held}/settlements/run`, { body: { date: '2026-11-20' }, headers: auth });
    assert.equal(first.json.data.outcome, 'started');
    const second = await request(`${base}/merchants/${held}/settlements/run`, { body: { date: '2026-11-20' }, headers: auth });
    assert.equal(second.json.data.outcome, 'already_running');
    await gw.rt.temporal.workflow.getHandle(`settlement:${held}:2026-11-20`).terminate('test over');
  });

  it('refuses a date whose capture window has not closed, a non-working day, bad input; nothing starts', async () => {
    const merchant = await newMerchant();
    const workingDayAfter = (date: string) => {
      let d = addDays(date, 1);
      while ([0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay())) d = addDays(d, 1);
      return d;
    };
    // The next working day settles what is captured today: its window is still open.
    const next = workingDayAfter(istDate(gw.rt.now()));
    for (const date of [next, workingDayAfter(next), '2026-11-21' /* a Saturday */]) {
      const res = await request(`${base}/merchants/${merchant}/settlements/run`, { body: { date }, headers: auth });
      assert.equal(res.status, 409, `${date}: ${res.text}`);
      assert.equal(res.json.success, false);
      assert.equal(res.json.message.code, '2064');
      await assert.rejects(
        gw.rt.temporal.workflow.getHandle(`settlement:${merchant}:${date}`).describe(),
        WorkflowNotFoundError,
        'nothing started',
      );
    }
    for (const body of [{ date: '2026-02-30' }, { date: '24-11-2026' }, {}, { date: '2026-11-24', extra: 1 }]) {
      const res = await request(`${base}/merchants/${merchant}/settlements/run`, { body, headers: auth });
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.message.code, '2002');
    }
    const unknown = await request(`${base}/merchants/nosuchmerchant1/settlements/run`, {
      body: { date: '2026-11-24' },
      headers: auth,
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.json.message.code, '2042');
    const noToken = await request(`${base}/merchants/${merchant}/settlements/run`, { body: { date: '2026-11-24' } });
    assert.equal(noToken.status, 401);
  });

  it('the gauge reports no values while the store is out of reach, never the last ones as current; the last success says since when', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-attention-outage-'));
    const store = await startFerretdb({ port: await freePort(), dataDir: dir, logDir: dir });
    const own = await startTestGateway({ MONGODB_URI: store.uri });
    try {
      const scrape = async () => {
        const res = await request(`${own.baseUrl}/metrics`, {
          headers: { authorization: `Bearer ${own.rt.config.secrets.opsToken}` },
        });
        assert.equal(res.status, 200, 'a store away never fails /metrics');
        const series = res.text.match(/^settlements_needing_attention\{.*$/gm) ?? [];
        const last = /^settlements_attention_last_success_seconds (\d+)$/m.exec(res.text);
        return { series, lastSuccess: Number(last?.[1]) };
      };
      const up = await scrape();
      assert.ok(up.series.some((l) => l.startsWith('settlements_needing_attention{reason="workflow_failed"} ')));
      assert.ok(Math.abs(up.lastSuccess - own.rt.now().getTime() / 1000) < 60, `${up.lastSuccess}`);
      await store.process.stop();
      const down = await scrape();
      assert.deepEqual(down.series, [], 'no stale values');
      assert.equal(down.lastSuccess, up.lastSuccess, 'the last read that worked');
    } finally {
      await own.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
