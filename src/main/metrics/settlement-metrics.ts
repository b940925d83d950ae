import { Gauge, type Registry } from 'prom-client';
import { ATTENTION_REASONS, type AttentionReason } from '../../domain/settlement-attention';
import { settlementAttention, type SettlementAttentionDeps } from '../../usecases/settlement-attention';

/**
 * `settlements_needing_attention{reason}`: how many settlements needs attention lists for each
 * reason (at most ATTENTION_LIMIT each), read at each scrape. An alert on `> 0` catches a
 * settlement that cannot finish, a bank file not checked or a bank-file difference.
 * A scrape that cannot read them (the store or Temporal away) reports no series at all rather
 * than the last values as if current, never failing /metrics; `settlements_attention_last_success_seconds`
 * (the Unix time of the last read that worked, 0 before the first) is what an alert on a read
 * that keeps failing uses.
 */
export function registerSettlementMetrics(registry: Registry, deps: SettlementAttentionDeps): void {
  const attention = settlementAttention(deps);
  // Both gauges are collected in the same scrape: they share one read.
  let reading: Promise<Record<AttentionReason, number> | null> | undefined;
  const read = () =>
    (reading ??= attention
      .counts()
      .catch(() => null)
      .finally(() => (reading = undefined)));
  let lastSuccessSeconds = 0;
  new Gauge({
    name: 'settlements_needing_attention',
    help: 'Settlements (and bank files) that need an operator, by reason (GET /ops/v1/settlements/needs-attention); no series when the last read failed',
    labelNames: ['reason'],
    registers: [registry],
    async collect() {
      const counts = await read();
      if (!counts) return this.reset();
      lastSuccessSeconds = Math.floor(deps.now().getTime() / 1000);
      for (const reason of ATTENTION_REASONS) this.set({ reason }, counts[reason]);
    },
  });
  new Gauge({
    name: 'settlements_attention_last_success_seconds',
    help: 'Unix time of the last read of settlements_needing_attention that worked (0: none yet)',
    registers: [registry],
    async collect() {
      const counts = await read();
      if (counts) lastSuccessSeconds = Math.floor(deps.now().getTime() / 1000);
      this.set(lastSuccessSeconds);
    },
  });
}
