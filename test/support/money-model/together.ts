import fc from 'fast-check';
import type { Model } from './commands';
import type { World } from './world';

type Cmd = fc.AsyncCommand<Model, World>;

/**
 * Two commands at once (`Promise.all`), as a merchant, its payers, the bank and the operator act
 * at the same moment: a refund beside a chargeback of the same order, a notify beside a revoke, a
 * payment beside a split. Only commands that may run beside any other are paired: each picks the
 * order or mandate it acts on synchronously when it starts (so a replay picks the same one), and
 * none moves time, cuts the store, rotates the key the other signs with, or checks the quiet state
 * of settlements (settle, skips, bank files, store outages, rotations, the daily run stay alone).
 *
 * fast-check's scheduler (`fc.scheduler`, `scheduledModelRun`) is not used: it orders the promises
 * a test wraps in it, and the commands' work happens in the gateway's servers, over HTTP, which
 * no scheduler of this process orders; `scheduledModelRun` still runs the commands one at a time.
 * What the pair's interleaving was is up to the servers; a failure's replay may need a few runs.
 */
export function together(beside: fc.Arbitrary<Cmd>[]): fc.Arbitrary<Cmd> {
  const one = fc.oneof(...beside);
  return fc.tuple(one, one).map(([a, b]) => {
    const name = `together(${a}, ${b})`;
    const cmd: Cmd = {
      check: (m: Model) => a.check(m) && b.check(m),
      async run(m: Model, w: World) {
        w.story.push(`together: ${a} | ${b}`);
        const ended = await Promise.allSettled([a.run(m, w), b.run(m, w)]);
        const failed = ended.find((e) => e.status === 'rejected');
        if (failed) throw failed.reason;
      },
      toString: () => name,
    };
    return Object.assign(cmd, { [fc.toStringMethod]: () => name });
  });
}
