/** Prometheus gauges of the policy manager, read at each scrape: shadow runs and each candidate's counters per agent + model pair. */
import { Gauge, type Registry } from 'prom-client';
import { countersOf, upperOf } from '../core/shadow/index.js';
import type { PolicyManager } from './policy-manager.js';

export function registerPolicyMetrics(registry: Registry, m: PolicyManager): void {
  const registers = [registry];
  const labels = (e: { state: { agent: string | null; model: string | null } }) => ({ agent: e.state.agent ?? '', model: e.state.model ?? '' });
  new Gauge({
    name: 'steplens_shadow_runs',
    help: 'Shadow sessions counted (ended with an outcome), per agent, model and outcome.',
    labelNames: ['agent', 'model', 'outcome'],
    registers,
    collect() {
      this.reset();
      for (const e of m.pairs.values()) {
        this.set({ ...labels(e), outcome: 'pass' }, e.state.counters.passing);
        this.set({ ...labels(e), outcome: 'fail' }, e.state.counters.failing);
      }
    },
  });
  const perCandidate = (name: string, help: string, value: (e: Parameters<typeof countersOf>[0], id: string) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['agent', 'model', 'candidate'],
      registers,
      collect() {
        this.reset();
        if (!m.shadow) return;
        for (const e of m.pairs.values()) for (const c of e.candidates) this.set({ ...labels(e), candidate: c.id }, value(e.state.counters, c.id));
      },
    });
  };
  perCandidate('steplens_shadow_passing_stopped', 'Passing shadow runs a candidate stop rule would have stopped.', (c, id) => countersOf(c, id).passingStopped);
  perCandidate('steplens_shadow_false_stop_upper', "Upper confidence bound of a candidate's false-stop rate (the promotion rule's).", (c, id) => upperOf(c, id, m.shadow!));
  perCandidate('steplens_shadow_failing_stopped', 'Failing shadow runs a candidate would have stopped.', (c, id) => countersOf(c, id).failingStopped);
  perCandidate('steplens_shadow_failing_steps_saved', 'Failing-run steps a candidate would have saved.', (c, id) => countersOf(c, id).failingStepsSaved);
  perCandidate('steplens_shadow_failing_tokens_saved', 'Failing-run tokens a candidate would have saved.', (c, id) => countersOf(c, id).failingTokensSaved);
  new Gauge({
    name: 'steplens_policy_in_force',
    help: '1 per agent + model pair: its state (shadow, promoted, pinned, configured) and the promoted candidate.',
    labelNames: ['agent', 'model', 'state', 'candidate'],
    registers,
    collect() {
      this.reset();
      for (const e of m.pairs.values()) {
        const s = e.state;
        const state = s.pinned !== null ? 'pinned' : !m.shadow ? 'configured' : s.promoted !== null ? 'promoted' : 'shadow';
        this.set({ ...labels(e), state, candidate: s.promoted ?? '' }, 1);
      }
    },
  });
}
