import { Gauge, type Registry } from 'prom-client';
import { ATTENTION_REASONS } from '../domain/settlement-attention';
import { settlementAttention, type SettlementAttentionDeps } from '../usecases/settlement-attention';

/**
 * `settlements_needing_attention{reason}`: how many settlements needs attention lists for each
 * reason (at most ATTENTION_LIMIT each), read at each scrape. An alert on `> 0` catches a
 * settlement that cannot finish, a bank file not checked or a bank-file difference. A store or
 * Temporal away leaves the previous values, never /metrics failing.
 */
export function registerSettlementMetrics(registry: Registry, deps: SettlementAttentionDeps): void {
  const attention = settlementAttention(deps);
  new Gauge({
    name: 'settlements_needing_attention',
    help: 'Settlements (and bank files) that need an operator, by reason (GET /ops/v1/settlements/needs-attention)',
    labelNames: ['reason'],
    registers: [registry],
    async collect() {
      const counts = await attention.counts().catch(() => null);
      if (!counts) return;
      for (const reason of ATTENTION_REASONS) this.set({ reason }, counts[reason]);
    },
  });
}
