/**
 * Prometheus gauges of the policy manager, read at each scrape: shadow runs and each candidate's counters per
 * tenant + agent + model pair. Bounded whatever clients name their agents: only the `metricsPairs` pairs with
 * the most shadow runs are labelled by name (metric-labels.ts: a fair share per tenant, names cut to 64
 * characters with a hash); the runs of the others are summed under `other`, their candidates left out. Of a
 * labelled pair's ~90 candidate stops, the {@link CANDIDATE_SERIES} that matter most are exported (the
 * promoted one, `configured`, then as `GET /v1/policies` orders them: eligible first, most tokens saved);
 * that route has them all. So a scrape holds at most metricsPairs x (8 x 5 + 3) + 4 series (20 pairs: 864),
 * and stays cheap (9,000 series took 0.4-1.2 s of the event loop on the loaded 2-core machine).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { countersOf, passingAllowed, upperOf, type ShadowCandidate } from '../core/shadow/index.js';
import { labelValue, topByTenant } from './metric-labels.js';
import type { PolicyManager } from './policy-manager.js';
import type { PairEntry } from './policy-pairs.js';

const OTHER = { tenant: 'other', agent: 'other', model: 'other' };
/** Candidates exported per labelled pair. */
export const CANDIDATE_SERIES = 8;

export function registerPolicyMetrics(registry: Registry, m: PolicyManager, metricsPairs: number): void {
  const registers = [registry];
  const labels = (e: PairEntry) => ({ tenant: e.tenant, agent: labelValue(e.state.agent), model: labelValue(e.state.model) });
  const runs = (e: PairEntry): number => e.state.counters.passing + e.state.counters.failing;
  // One choice per scrape, shared by every gauge (each collect asks; the first of a scrape computes).
  let chosen: { at: number; pairs: PairEntry[] } = { at: -1, pairs: [] };
  const named = (): PairEntry[] => {
    const now = Date.now();
    if (now - chosen.at > 1000) chosen = { at: now, pairs: topByTenant(m.pairs.values(), metricsPairs, runs) };
    return chosen.pairs;
  };
  new Gauge({
    name: 'steplens_shadow_runs',
    help: 'Shadow sessions counted (ended with an outcome), per tenant, agent, model and outcome; pairs past the labelled ones summed under other.',
    labelNames: ['tenant', 'agent', 'model', 'outcome'],
    registers,
    collect() {
      this.reset();
      const top = new Set(named());
      let pass = 0;
      let fail = 0;
      for (const e of m.pairs.values()) {
        if (top.has(e)) {
          this.set({ ...labels(e), outcome: 'pass' }, e.state.counters.passing);
          this.set({ ...labels(e), outcome: 'fail' }, e.state.counters.failing);
        } else {
          pass += e.state.counters.passing;
          fail += e.state.counters.failing;
        }
      }
      if (top.size < m.pairs.size) {
        this.set({ ...OTHER, outcome: 'pass' }, pass);
        this.set({ ...OTHER, outcome: 'fail' }, fail);
      }
    },
  });
  const perCandidate = (name: string, help: string, value: (e: Parameters<typeof countersOf>[0], id: string) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['tenant', 'agent', 'model', 'candidate'],
      registers,
      collect() {
        this.reset();
        if (!m.shadow) return;
        for (const e of named()) for (const c of exported(e)) this.set({ ...labels(e), candidate: c.id }, value(e.state.counters, c.id));
      },
    });
  };
  // The candidates a labelled pair exports, chosen once per scrape like the pairs.
  const exportedOf = new WeakMap<PairEntry, { at: number; list: ShadowCandidate[] }>();
  const exported = (e: PairEntry): ShadowCandidate[] => {
    const hit = exportedOf.get(e);
    if (hit?.at === chosen.at) return hit.list;
    const list = topCandidates(e, m.shadow!);
    exportedOf.set(e, { at: chosen.at, list });
    return list;
  };
  perCandidate('steplens_shadow_passing_stopped', 'Passing shadow runs a candidate stop rule would have stopped (labelled pairs only).', (c, id) => countersOf(c, id).passingStopped);
  perCandidate('steplens_shadow_false_stop_upper', "Upper confidence bound of a candidate's false-stop rate (the promotion rule's; labelled pairs only).", (c, id) => upperOf(c, id, m.shadow!));
  perCandidate('steplens_shadow_failing_stopped', 'Failing shadow runs a candidate would have stopped (labelled pairs only).', (c, id) => countersOf(c, id).failingStopped);
  perCandidate('steplens_shadow_failing_steps_saved', 'Failing-run steps a candidate would have saved (labelled pairs only).', (c, id) => countersOf(c, id).failingStepsSaved);
  perCandidate('steplens_shadow_failing_tokens_saved', 'Failing-run tokens a candidate would have saved (labelled pairs only).', (c, id) => countersOf(c, id).failingTokensSaved);
  new Gauge({
    name: 'steplens_policy_in_force',
    help: '1 per labelled pair: its state (shadow, promoted, pinned, configured) and the promoted candidate.',
    labelNames: ['tenant', 'agent', 'model', 'state', 'candidate'],
    registers,
    collect() {
      this.reset();
      for (const e of named()) {
        const s = e.state;
        const state = (m.pinOf(e)?.pinned ?? null) !== null ? 'pinned' : !m.shadow ? 'configured' : s.promoted !== null ? 'promoted' : 'shadow';
        this.set({ ...labels(e), state, candidate: s.promoted ?? '' }, 1);
      }
    },
  });
  new Gauge({
    name: 'steplens_policy_pairs',
    help: 'Agent + model pairs the policy manager holds (all tenants; bounded by limits.pairs and limits.pairsPerTenant).',
    registers,
    collect() {
      this.set(m.pairs.size);
    },
  });
  new Counter({
    name: 'steplens_policy_pairs_evicted_total',
    help: 'Pairs pushed out of the bounded pair table (least recently used first), their counters dropped.',
    registers,
    collect() {
      this.reset();
      this.inc(m.evicted);
    },
  });
}

/** A pair's {@link CANDIDATE_SERIES} candidates worth a series: the promoted, `configured`, then eligible first and most tokens saved. */
function topCandidates(e: PairEntry, rule: NonNullable<PolicyManager['shadow']>): ShadowCandidate[] {
  const c = e.state.counters;
  // Eligible as the promotion rule has it (passingAllowed is memoised: no bound computed per candidate).
  const allowed = passingAllowed(c.passing, rule);
  const rank = (x: ShadowCandidate): [number, number, number] => {
    const k = countersOf(c, x.id);
    const eligible = k.failingStopped > 0 && k.passingStopped <= allowed;
    return [x.id === e.state.promoted ? 0 : x.id === 'configured' ? 1 : eligible ? 2 : 3, -k.failingTokensSaved, k.passingStopped];
  };
  const ranked = e.candidates.map((x) => ({ x, r: rank(x) }));
  ranked.sort((a, b) => a.r[0] - b.r[0] || a.r[1] - b.r[1] || a.r[2] - b.r[2]);
  return ranked.slice(0, CANDIDATE_SERIES).map((y) => y.x);
}
