import type { DueDebit } from './debits-due';

/** What a kill probe leaves its debit half: the debits it had fall due, when it killed, the debits the killed process held. */
export interface KillDebits {
  due: DueDebit[];
  killedAt: number;
  held: string[];
}

/**
 * The debits each kill probe had fall due, read by the probe's debit half, its own test: that test
 * is pending (mocha's skip, counted in the totals) when a peak window let no debit fall due, rather
 * than passing on nothing, and fails when the probe ended before its debits fell due.
 */
export class DebitsOfKills {
  private readonly byProbe = new Map<string, KillDebits>();

  set(probe: string, k: KillDebits): void {
    this.byProbe.set(probe, k);
  }

  of(ctx: { skip(): void }, probe: string): KillDebits {
    const k = this.byProbe.get(probe);
    if (!k) throw new Error(`the kill probe (${probe}) ended before its debits fell due`);
    if (k.due.length === 0) ctx.skip();
    return k;
  }
}
