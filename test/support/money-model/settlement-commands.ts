import fc from 'fast-check';
import type { FeePlan } from '../../../src/domain/settlement-fees';
import { askRefunds, chargeback, type ModelOrder, type World } from './world';
import { dailyRun, FILE_FORMS } from './schedule';
import { ACCOUNT_CHOICES, changeAccount, holdOrRelease, payBurst, splitOrder, type BurstPayment } from './settlement-actions';
import type { Model } from './commands';
import { storeOutage, workerCrash } from './server-faults';

/**
 * The settlement side of the model's commands (the split, which may run beside another command, is
 * exported on its own): realistic amounts and busy hours, a fee plan that
 * charges every instrument, splits, holds, account changes, the daily run meeting a bad bank file,
 * and the failures of the gateway's own servers (a worker restart, a store outage).
 */
type Cmd = fc.AsyncCommand<Model, World>;

export function command(name: string, check: (m: Model) => boolean, run: (m: Model, w: World) => Promise<string | void>): Cmd {
  const cmd: Cmd = {
    check,
    async run(m, w) {
      let said: string | void;
      try {
        said = await run(m, w);
      } catch (e) {
        w.story.push(`${name}: threw`);
        throw e;
      }
      w.story.push(said ? `${name}: ${said}` : name);
    },
    toString: () => name,
  };
  // fast-check prints a counterexample's values by this method (the debit opening's commands).
  return Object.assign(cmd, { [fc.toStringMethod]: () => name });
}

const pick = <T>(list: T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);

/** Rs 1 to Rs 10 lakh, spread evenly over the orders of magnitude, the per-payment cap now and then. */
export const realisticAmount = fc.oneof(
  { weight: 9, arbitrary: fc.integer({ min: 0, max: 6000 }).map((x) => Math.min(100_000_000, Math.round(10 ** (2 + x / 1000)))) },
  { weight: 1, arbitrary: fc.constant(100_000_000) },
);
/** Rs 1 lakh to Rs 10 lakh: a day of these nets crores. */
const largeAmount = fc.integer({ min: 0, max: 1000 }).map((x) => Math.min(100_000_000, Math.round(10 ** (7 + x / 1000))));

const rate = fc.record({ percentBps: fc.integer({ min: 1, max: 300 }), fixedPaise: fc.integer({ min: 0, max: 300 }) });

/** A plan with a fee on every instrument (and a network's own card rate, sometimes). */
export const feePlanArb: fc.Arbitrary<FeePlan> = fc
  .record({
    upi: rate,
    card: fc.record({ debit: rate, credit: rate }),
    networks: fc.option(fc.record({ VISA: fc.record({ credit: rate }) }), { nil: undefined }),
    netbanking: rate,
    wallet: rate,
    refundReturnsFee: fc.boolean(),
  })
  .map(({ networks, ...plan }) => (networks ? { ...plan, networks } : plan));

const burstPayment: fc.Arbitrary<Omit<BurstPayment, 'amountPaise'>> = fc.constantFrom(
  { kind: 'upi' as const, payer: 'success@sandbox' },
  { kind: 'upi' as const, payer: 'success@sandbox' },
  { kind: 'upi' as const, payer: 'slow@sandbox' },
  { kind: 'card' as const, payer: '4012001037141112' },
);

/** A busy hour: many payments of the merchant at once, at a realistic spread or all large. */
const burstCmd = fc
  .record({ large: fc.boolean(), payments: fc.array(burstPayment, { minLength: 3, maxLength: 12 }) })
  .chain(({ large, payments }) =>
    fc
      .array(large ? largeAmount : realisticAmount, { minLength: payments.length, maxLength: payments.length })
      .map((amounts) => ({ large, payments: payments.map((p, i) => ({ ...p, amountPaise: amounts[i]! })) })),
  )
  .map(({ large, payments }) =>
    command(
      `payBurst(${payments.length}${large ? ', large' : ''})`,
      () => true,
      async (m, w) => {
        const said = await payBurst(w, payments);
        m.orders = w.orders.length;
        return said;
      },
    ),
  );

const SPLITS = [[30, 20], [50], [99], [1, 1]] as const;

/** Something that lands on a paid order: a refund, a chargeback, a split (also during a settlement's claim). */
export const landing = fc.record({
  i: fc.nat(),
  kind: fc.constantFrom('refund', 'chargeback', 'split'),
  share: fc.constantFrom(100, 40),
  split: fc.constantFrom(...SPLITS),
});
export type Landing = typeof landing extends fc.Arbitrary<infer T> ? T : never;

export const landingName = (l: Landing) =>
  `${l.kind}(#${l.i}${l.kind === 'split' ? ` [${l.split.join(',')}]%` : `, ${l.share}%`})`;

export async function land(w: World, l: Landing): Promise<string> {
  const order: ModelOrder | undefined = pick(w.orders, l.i);
  if (!order) return 'no order';
  if (l.kind === 'split') return splitOrder(w, order, [...l.split]);
  if (l.kind === 'chargeback') return chargeback(w, order, 'raise', l.share);
  const amountPaise = l.share === 100 ? 'full' : Math.max(1, Math.floor((order.amountPaise * l.share) / 100));
  return `${order.orderId} → ${(await askRefunds(w, order, { amountPaise, merchantRefIds: ['during'] })).join(',')}`;
}

export const splitCommand = landing.map((l) =>
  command(
    `split(#${l.i}, [${l.split.join(',')}]%)`,
    (m) => m.orders > 0,
    async (_m, w) => land(w, { ...l, kind: 'split' }),
  ),
);

const holdCmd = fc.boolean().map((hold) =>
  command(
    hold ? 'holdSettlements' : 'releaseSettlements',
    () => true,
    async (_m, w) => holdOrRelease(w, hold),
  ),
);

const accountCmd = fc.constantFrom(...ACCOUNT_CHOICES).map((choice) =>
  command(
    `changeAccount(${choice})`,
    () => true,
    async (_m, w) => changeAccount(w, choice),
  ),
);

/** The daily run of the latest due date, meeting the bank's file of the day before as `form`. */
const dailyRunCmd = fc.constantFrom(...FILE_FORMS).map((form) =>
  command(
    `dailyRun(bank file ${form})`,
    () => true,
    async (_m, w) => dailyRun(w, form),
  ),
);

/** The store is unreachable for a while: every connection reset, new ones refused. */
const storeOutageCmd = fc.constantFrom(200, 1000, 3000).map((ms) =>
  command(
    `storeOutage(${ms}ms)`,
    () => true,
    async (_m, w) => storeOutage(w, ms),
  ),
);

/** The worker dies under its next activity runs: each is retried, its work possibly done already. */
const workerCrashCmd = fc.integer({ min: 1, max: 4 }).map((n) =>
  command(
    `workerCrash(${n} activities)`,
    () => true,
    async (_m, w) => workerCrash(w, n),
  ),
);

export const settlementCommands = () => [burstCmd, burstCmd, holdCmd, accountCmd, dailyRunCmd, storeOutageCmd, workerCrashCmd];
