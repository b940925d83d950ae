import fc from 'fast-check';
import type { World } from './world';
import { createMandate, notifyDebit, revokeMandate } from './mandate-actions';
import { command, land, landing, landingName, realisticAmount, settlementCommands, splitCommand } from './settlement-commands';
import { together } from './together';
import { assertSettlements, finishSettlements, PAYOUT_FAULTS, settle } from './settle';
import {
  askRefunds,
  cancelledCheckout,
  chargeback,
  openQr,
  payDirect,
  payIntentInApp,
  rotateSecretKey,
  scanQr,
  skip,
  uploadBankFile,
  type ModelOrder,
} from './world';

/**
 * The model's commands: what merchants, payers, the bank and time do to the gateway. The model
 * only counts orders (what a command may pick); the real state is read back by the checker.
 * Each command logs itself into the world's story, which a failure prints.
 */
export interface Model {
  orders: number;
  /** QRs and cancelled checkouts: the orders whose UPI intent the payer may pay in their app. */
  qrs: number;
  mandates: number;
}

/** Every sandbox VPA: the sandbox's outcomes and the hostile bank's conducts (sandbox-bank.ts). */
export const VPAS = [
  'success@sandbox',
  'failure@sandbox',
  'noanswer@sandbox',
  'slow@sandbox',
  'twice@sandbox',
  'inquirypending@sandbox',
  'late@sandbox',
] as const;
const CARDS = ['4012001037141112', '4000000000000002'] as const;

const pick = <T>(list: T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);

/** Payments at a realistic spread (Rs 1 to Rs 10 lakh); debits at the modest amounts of a mandate. */
const amount = realisticAmount;
const debitAmount = fc.integer({ min: 900, max: 50_000 });

const payUpi = (vpas: string[]) =>
  fc.tuple(fc.constantFrom(...vpas), amount).map(([vpa, paise]) =>
    command(
      `payUpi(${vpa}, ${paise})`,
      () => true,
      async (m, w) => {
        const orderId = await payDirect(w, 'upi', vpa, paise);
        m.orders++;
        return orderId;
      },
    ),
  );

const payCard = fc.tuple(fc.constantFrom(...CARDS), amount).map(([card, paise]) =>
  command(
    `payCard(${card}, ${paise})`,
    () => true,
    async (m, w) => {
      const orderId = await payDirect(w, 'card', card, paise);
      m.orders++;
      return orderId;
    },
  ),
);

const createQr = amount.map((paise) =>
  command(
    `createQr(${paise})`,
    () => true,
    async (m, w) => {
      const orderId = await openQr(w, paise);
      m.orders++;
      m.qrs++;
      return orderId;
    },
  ),
);

const qrs = (w: World) => w.orders.filter((o) => o.kind === 'qr');
const intents = (w: World) => w.orders.filter((o) => o.kind === 'qr' || o.kind === 'checkout');

/** A hosted checkout whose page handed out a UPI intent, cancelled by the payer on the page. */
const checkoutCmd = amount.map((paise) =>
  command(
    `cancelledCheckout(${paise})`,
    () => true,
    async (m, w) => {
      const orderId = await cancelledCheckout(w, paise);
      m.orders++;
      m.qrs++;
      return orderId;
    },
  ),
);

/** Mandate payers: one whose debits are paid, one whose debits the bank declines (retried, then 1112). */
const MANDATE_PAYERS = ['success@sandbox', 'debitfail@sandbox'] as const;

const createMandateCommand = (payer: string) =>
  command(
    `createMandate(${payer})`,
    () => true,
    async (m, w) => {
      const said = await createMandate(w, payer);
      m.mandates = w.mandates.length;
      return said;
    },
  );
const createMandateCmd = fc.constantFrom(...MANDATE_PAYERS).map(createMandateCommand);

/** Execution times around the peak windows' edges (10:00-13:00, 17:00-21:30 IST) and outside them. */
const EXECUTION_TIMES = ['06:00:00', '09:59:00', '10:00:00', '13:00:00', '16:59:00', '21:30:00', '23:45:00'] as const;

interface NotifyDraw {
  i: number;
  days: number;
  time: string;
  paise: number;
}
const notifyCommand = ({ i, days, time, paise }: NotifyDraw) =>
  command(
    `notify(#${i}, +${days}d ${time}, ${paise})`,
    (m) => m.mandates > 0,
    async (_m, w) => notifyDebit(w, pick(w.mandates, i)!, { days, time, amountPaise: paise }),
  );
const notifyCmd = fc
  .record({ i: fc.nat(), days: fc.integer({ min: 1, max: 3 }), time: fc.constantFrom(...EXECUTION_TIMES), paise: debitAmount })
  .map(notifyCommand);

/**
 * The opening of one sequence in four: a mandate, and a debit notified under it two or three days
 * ahead (never refused as less than 24 hours away), which the settling skips at the end of the
 * sequence bring to the bank. Drawn commands alone reach a debit in few short sequences (a create,
 * then a notify); the opening makes every run of the CI profile check invariant 3 on real debits.
 */
export const debitOpening = fc
  .oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.record({
        payer: fc.constantFrom(...MANDATE_PAYERS),
        days: fc.integer({ min: 2, max: 3 }),
        time: fc.constantFrom(...EXECUTION_TIMES),
        paise: debitAmount,
      }),
    },
  )
  .map((o) => (o ? [createMandateCommand(o.payer), notifyCommand({ i: 0, ...o })] : []));

const revokeCmd = fc.nat().map((i) =>
  command(
    `revoke(#${i})`,
    (m) => m.mandates > 0,
    async (_m, w) => revokeMandate(w, pick(w.mandates, i)!),
  ),
);

const scanQrCmd = (vpas: string[]) =>
  fc.tuple(fc.nat(), fc.constantFrom(...vpas)).map(([i, vpa]) =>
    command(
      `scanQr(#${i}, ${vpa})`,
      (m) => m.qrs > 0,
      async (_m, w) => {
        const qr = pick(qrs(w), i);
        if (!qr) return 'no QR yet (only checkouts)';
        return `${qr.orderId} → HTTP ${await scanQr(w, qr, vpa)}`;
      },
    ),
  );

/** The payer pays the intent in their app: a QR's before, after it expired or after a scan; a cancelled checkout's. */
const payIntentCmd = fc.nat().map((i) =>
  command(
    `payIntentInApp(#${i})`,
    (m) => m.qrs > 0,
    async (_m, w) => {
      const qr = pick(intents(w), i)!;
      return `${qr.orderId} → HTTP ${await payIntentInApp(w, qr)}`;
    },
  ),
);

const refundCmd = fc
  .record({
    i: fc.nat(),
    full: fc.boolean(),
    share: fc.integer({ min: 1, max: 100 }),
    refIds: fc.array(fc.option(fc.constantFrom('r1', 'r2', 'r3'), { nil: undefined }), { minLength: 1, maxLength: 3 }),
  })
  .map(({ i, full, share, refIds }) =>
    command(
      `refund(#${i}, ${full ? 'full' : `${share}%`}, [${refIds.map((r) => r ?? '-').join(',')}])`,
      (m) => m.orders > 0,
      async (_m, w) => {
        const order: ModelOrder = pick(w.orders, i)!;
        const paise = full ? 'full' : Math.max(1, Math.floor((order.amountPaise * share) / 100));
        const statuses = await askRefunds(w, order, { amountPaise: paise, merchantRefIds: refIds });
        return `${order.orderId} → ${statuses.join(',')}`;
      },
    ),
  );

/** The bank charges an order back (a share of it, or all) or reverts the chargeback it raised. */
const chargebackCmd = fc
  .record({ i: fc.nat(), revert: fc.boolean(), share: fc.constantFrom(100, 40, 1) })
  .map(({ i, revert, share }) =>
    command(
      `chargeback(#${i}, ${revert ? 'revert' : `raise ${share}%`})`,
      (m) => m.orders > 0,
      async (_m, w) => chargeback(w, pick(w.orders, i)!, revert ? 'revert' : 'raise', share),
    ),
  );

/**
 * The merchant's settlement of a due date (settle.ts): the next cycle (the clock moved to its run)
 * or the latest one already due (perhaps settled before: the same id), with a payout fault, in
 * flight while the next commands run, or replayed. After it, invariants 6 to 8: in full once
 * every settlement of the sequence has ended, else what holds while one runs.
 */
const settleCmd = fc
  // Mostly the next cycle: the one with something to settle.
  .record({
    advance: fc.constantFrom(true, true, false),
    fault: fc.constantFrom(...PAYOUT_FAULTS),
    inFlight: fc.boolean(),
    twice: fc.boolean(),
    during: fc.option(landing, { nil: undefined, freq: 2 }),
  })
  .map(({ during, ...o }) =>
    command(
      `settle(${o.advance ? 'next cycle' : 'latest due'}, ${o.fault}${o.inFlight ? ', in flight' : ''}${o.twice ? ', twice' : ''}${during ? `, ${landingName(during)} during its claim` : ''})`,
      () => true,
      async (_m, w) => {
        const said = await settle(w, {
          ...o,
          ...(during ? { during: { name: landingName(during), act: (x) => land(x, during) } } : {}),
        });
        const quiet = !o.inFlight || o.twice;
        if (quiet) await finishSettlements(w);
        await assertSettlements(w, quiet);
        return said;
      },
    ),
  );

const skipCmd = fc.constantFrom(60, 900, 3600, 6 * 3600).map((seconds) =>
  command(
    `skip(${seconds}s)`,
    () => true,
    async (_m, w) => {
      await w.stack.bank.idle();
      await skip(w, seconds);
    },
  ),
);

const waitCmd = fc.constantFrom(50, 300, 1200).map((ms) =>
  command(
    `wait(${ms}ms)`,
    () => true,
    async () => {
      await new Promise((r) => setTimeout(r, ms));
    },
  ),
);

const reconcileCmd = fc.constant(
  command(
    'bankFile',
    (m) => m.orders > 0,
    async (_m, w) => {
      await w.stack.bank.idle();
      await uploadBankFile(w);
    },
  ),
);

const rotateCmd = fc.constant(
  command(
    'rotateSecretKey',
    () => true,
    async (_m, w) => {
      await rotateSecretKey(w);
    },
  ),
);

const receiverCmd = fc.boolean().map((down) =>
  command(
    down ? 'receiverDown' : 'receiverUp',
    () => true,
    async (_m, w) => {
      const set = w.stack.receiverDown;
      if (down) set.add(w.merchant.merchantIdentifier);
      else set.delete(w.merchant.merchantIdentifier);
    },
  ),
);

/**
 * Every command, weighted towards payments (the rest needs orders to act on), and pairs of the
 * commands that may run beside another (together.ts). `without` leaves payers out (a run exploring
 * past a known defect), never an invariant.
 */
export const allCommands = (without: string[] = []) => {
  const vpas = VPAS.filter((v) => !without.includes(v));
  if (vpas.length === 0) throw new Error('every payer VPA was left out');
  const beside = [
    payUpi(vpas),
    payUpi(vpas),
    payUpi(vpas),
    payCard,
    createQr,
    scanQrCmd(vpas),
    payIntentCmd,
    checkoutCmd,
    createMandateCmd,
    notifyCmd,
    notifyCmd,
    notifyCmd,
    revokeCmd,
    refundCmd,
    refundCmd,
    chargebackCmd,
    receiverCmd,
    splitCommand,
  ];
  return [
    ...beside,
    together(beside),
    together(beside),
    together(beside),
    settleCmd,
    settleCmd,
    skipCmd,
    waitCmd,
    reconcileCmd,
    rotateCmd,
    ...settlementCommands(),
  ];
};
