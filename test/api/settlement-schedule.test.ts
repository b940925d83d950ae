import { strict as assert } from 'node:assert';
import { ensureSettlementFileSchedule, ensureSettlementSchedule } from '../../src/temporal/schedules';
import { SETTLEMENT_FILE_SCHEDULE_ID, SETTLEMENT_SCHEDULE_ID } from '../../src/temporal/settlement-contract';
import { sharedGateway, type TestGateway } from '../support/gateway';

/** The daily settlement schedule on the real Temporal server: created once, in IST, kept in line with the configuration. */
describe('settlement:daily schedule', function () {
  this.timeout(60_000);
  let gw: TestGateway;
  before(async () => {
    gw = await sharedGateway();
  });
  after(async () => {
    for (const id of [SETTLEMENT_SCHEDULE_ID, SETTLEMENT_FILE_SCHEDULE_ID])
      await gw.rt.temporal.schedule
        .getHandle(id)
        .delete()
        .catch(() => undefined);
  });

  it('starts settlementDayWorkflow every day at the configured IST hour; a second ensure changes nothing, a new hour updates it', async () => {
    const queue = gw.rt.config.temporal.taskQueue;
    await ensureSettlementSchedule(gw.rt.temporal, queue, 9);
    await ensureSettlementSchedule(gw.rt.temporal, queue, 9);
    const d = await gw.rt.temporal.schedule.getHandle(SETTLEMENT_SCHEDULE_ID).describe();
    assert.equal(d.action.type, 'startWorkflow');
    assert.equal(d.action.type === 'startWorkflow' && d.action.workflowType, 'settlementDayWorkflow');
    assert.equal(d.spec.timezone, 'Asia/Kolkata');
    assert.deepEqual(d.spec.calendars?.[0]?.hour, [{ start: 9, end: 9, step: 1 }]);
    await ensureSettlementSchedule(gw.rt.temporal, queue, 10);
    const moved = await gw.rt.temporal.schedule.getHandle(SETTLEMENT_SCHEDULE_ID).describe();
    assert.deepEqual(moved.spec.calendars?.[0]?.hour, [{ start: 10, end: 10, step: 1 }]);
  });

  it("the bank's settlement file has a schedule of its own: settlementFileWorkflow daily at its IST hour", async () => {
    const queue = gw.rt.config.temporal.taskQueue;
    await ensureSettlementFileSchedule(gw.rt.temporal, queue, 11);
    await ensureSettlementFileSchedule(gw.rt.temporal, queue, 11);
    const d = await gw.rt.temporal.schedule.getHandle(SETTLEMENT_FILE_SCHEDULE_ID).describe();
    assert.equal(d.action.type === 'startWorkflow' && d.action.workflowType, 'settlementFileWorkflow');
    assert.equal(d.spec.timezone, 'Asia/Kolkata');
    assert.deepEqual(d.spec.calendars?.[0]?.hour, [{ start: 11, end: 11, step: 1 }]);
    await ensureSettlementFileSchedule(gw.rt.temporal, queue, 12);
    const moved = await gw.rt.temporal.schedule.getHandle(SETTLEMENT_FILE_SCHEDULE_ID).describe();
    assert.deepEqual(moved.spec.calendars?.[0]?.hour, [{ start: 12, end: 12, step: 1 }]);
  });
});
