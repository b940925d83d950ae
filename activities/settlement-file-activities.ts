import type { BankPayouts } from '../src/bank/connector';
import type { Settlement } from '../src/domain/settlement';
import { differenceDates } from '../src/domain/settlement-attention';
import { istDate } from '../src/domain/ist-time';
import { addDays, istMidnight, isWorkingDay, type SettlementCalendar } from '../src/domain/settlement-calendar';
import type { SettlementAttentionRepository } from '../src/store/settlement-attention-repository';
import type { SettlementDifference, SettlementRepository } from '../src/store/settlement-repository';

/** Differences looked at again per check (needs attention looks at them too, on each read). */
const RESOLVE_LIMIT = 1000;

export interface SettlementFileActivityDeps {
  settlementStore: SettlementRepository;
  settlementAttention: SettlementAttentionRepository;
  payouts: BankPayouts;
  settlementCalendar: SettlementCalendar;
  now: () => Date;
}

/**
 * The check of the bank's settlement file of a payout date (workflows/settlement-file.ts, on its
 * own schedule): each difference between the bank's lines and the settlements the gateway
 * recorded paid that date is recorded once, never written over a settlement.
 */
export function createSettlementFileActivities(deps: SettlementFileActivityDeps) {
  const { settlementStore: store, settlementAttention: attention, now } = deps;
  return {
    /**
     * Compares the file with the settlements paid on its date (the payout date, by `paidAt` in
     * IST, not the settlement date, so weekends and late payouts are checked too). A settlement
     * the bank paid while the gateway still waits for the bank's answer (`payout_requested`) is a
     * difference too: `paid_at_bank_not_recorded`, resolved (kept, no longer listed) once the
     * gateway records it paid; the date it is recorded on does not list it `missing_at_bank`.
     */
    async reconcileSettlementFile(input: { date: string }): Promise<{ payouts: number; differences: number }> {
      const file = await deps.payouts.settlementFile(input.date);
      const ours = await attention.paidBetween(istMidnight(input.date), istMidnight(addDays(input.date, 1)));
      const atBank = new Map(file.map((p) => [p.payoutId, p]));
      const known = new Map<string, Settlement>(
        (await store.findByPayoutIds(file.map((p) => p.payoutId))).map((s) => [s._id, s]),
      );
      for (const s of ours) known.set(s._id, s);
      let differences = 0;
      const record = async (payoutId: string, kind: SettlementDifference['kind']) => {
        const s = known.get(payoutId);
        const b = atBank.get(payoutId);
        const recorded = await store.recordDifference({
          _id: `${input.date}:${payoutId}:${kind}`,
          date: input.date,
          payoutId,
          merchantIdentifier: s?.merchantIdentifier ?? b?.merchantIdentifier ?? null,
          kind,
          gateway: s ? { amountPaise: s.netPaise, utr: s.utr ?? null, state: s.state } : null,
          bank: b ? { amountPaise: b.amountPaise, utr: b.utr } : null,
          foundAt: now(),
        });
        if (recorded) differences++;
      };
      // Paid by the bank on an earlier date (its file listed it then) and recorded by the gateway on this one: not missing.
      const listedEarlier = await attention.listedByEarlierFile(
        ours.filter((s) => !atBank.has(s._id)).map((s) => s._id),
        input.date,
      );
      for (const s of ours) if (!atBank.has(s._id) && !listedEarlier.has(s._id)) await record(s._id, 'missing_at_bank');
      for (const b of file) {
        const s = known.get(b.payoutId);
        if (s?.state === 'payout_requested') await record(b.payoutId, 'paid_at_bank_not_recorded');
        else if (s?.state !== 'paid') await record(b.payoutId, 'unknown_to_gateway');
        else {
          if (s.netPaise !== b.amountPaise) await record(b.payoutId, 'amount_differs');
          if (s.utr && s.utr !== b.utr) await record(b.payoutId, 'utr_differs');
        }
      }
      await attention.resolveRecordedPayouts(differenceDates(input.date), now(), RESOLVE_LIMIT);
      return { payouts: file.length, differences };
    },

    /** The payout date whose file the daily check reads: the IST day before (weekends and holidays included). */
    async settlementFileDate(input: { date?: string }): Promise<string> {
      return input.date ?? addDays(istDate(now()), -1);
    },

    /**
     * Records how a date's check ended: a success clears an earlier failure; a failure is listed by
     * needs attention with its reason, `file_missing` (the bank has no file of that date: never
     * read as an empty one) or `file_unreadable`, and what the last attempt met (`detail`).
     */
    async recordSettlementFileCheck(
      input: { date: string } & (
        { ok: true; payouts: number; differences: number } | { ok: false; reason: string; missing?: boolean }
      ),
    ): Promise<void> {
      await attention.recordFileCheck(
        input.ok
          ? { _id: input.date, state: 'checked', payouts: input.payouts, differences: input.differences, at: now() }
          : {
              _id: input.date,
              state: 'failed',
              reason: input.missing ? 'file_missing' : 'file_unreadable',
              detail: input.reason.slice(0, 500),
              at: now(),
            },
      );
    },

    /** The previous working day (the date whose file the daily settlement run checked before the file had its own schedule). */
    async previousWorkingDay(input: { settlementDate: string }): Promise<string> {
      let d = addDays(input.settlementDate, -1);
      while (!isWorkingDay(deps.settlementCalendar, d)) d = addDays(d, -1);
      return d;
    },
  };
}

export type SettlementFileActivities = ReturnType<typeof createSettlementFileActivities>;
