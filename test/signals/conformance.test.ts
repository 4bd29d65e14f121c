/**
 * The one conformance suite of the signal extension point (`SignalTracker`,
 * src/core/signals/tracker.ts): for every tracker the signals folder exports, online
 * equals batch at every prefix of every real corpus run, against the prior and against
 * a PTA. "Batch" is the signal computed from scratch on the prefix by the definition of
 * method.md section 5, written here independently of the incremental code.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { equivalent } from '../../src/core/equivalence.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { buildPta, ptaPaths } from '../../src/core/pta/index.js';
import type { Pta, Reference } from '../../src/core/scorer-api.js';
import { createCoherenceTracker } from '../../src/core/signals/coherence.js';
import { createPriorSignalTracker, SETTLE_STEPS } from '../../src/core/signals/prior-signals.js';
import { createStructuralTracker } from '../../src/core/signals/structural.js';
import { createTemporalTracker, referenceWindows } from '../../src/core/signals/temporal.js';
import type { SignalTracker } from '../../src/core/signals/tracker.js';
import type { Stage, StageDist, State } from '../../src/core/types.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const cfg = DEFAULT_CONFIG;

/** Kinds never a retry (method.md section 6.3): protocol turns, turns without an action, unparsed calls. */
const NEVER_RETRY = new Set(['finish', 'none', 'other']);

/** True when the state `e` changed something that can alter the outcome of repeating `s`. */
function changesOutcome(e: State, s: State): boolean {
  const fileScoped = s.file !== undefined && (s.kind === 'read' || (!s.command && (s.kind === 'edit' || s.kind === 'create')));
  if (!fileScoped) return e.changesFile || e.changesEnv === true;
  if (e.changesFile && (e.file === undefined || e.file === s.file)) return true;
  return e.changesEnv === true && e.kind !== 'install';
}

/** Per state, whether it is a blind retry, from the definition: the same action (hash, no variant) after the last hand-over, nothing relevant changed by a step that was not itself a retry. */
function blindRetries(states: readonly State[]): boolean[] {
  const retry: boolean[] = [];
  states.forEach((s, j) => {
    const start = states.slice(0, j).findLastIndex((e) => e.kind === 'finish') + 1;
    const i = states.slice(0, j).findLastIndex((e, k) => k >= start && e.hash === s.hash && !NEVER_RETRY.has(e.kind));
    const changed = states.slice(i + 1, j).some((e, k) => !retry[i + 1 + k] && changesOutcome(e, s));
    retry.push(!NEVER_RETRY.has(s.kind) && s.variant !== true && i >= 0 && !changed);
  });
  return retry;
}

/** Φcoh from scratch: transitions between consecutive states, blind retries, then the formula. */
function coherence(states: readonly State[]): number {
  const order = { E: 0, I: 1, V: 2 } as const;
  let pivots = 0;
  let confirms = 0;
  let backtracks = 0;
  const compare = (from: Stage | undefined, to: Stage) => {
    if (from === undefined || from === 'O' || to === 'O' || from === to) return;
    if (order[to] > order[from]) pivots++;
    else backtracks++;
  };
  for (let i = 1; i < states.length; i++) {
    const [prev, cur] = [states[i - 1]!.stage, states[i]!.stage];
    if (prev === cur) continue;
    if (cur === 'O') confirms++;
    else if (prev === 'O') compare(states.slice(0, i).findLast((s) => s.stage !== 'O')?.stage, cur);
    else compare(prev, cur);
  }
  const retries = blindRetries(states).filter(Boolean).length;
  const n = states.length;
  if (n <= 1) return 0;
  const good = pivots + confirms;
  return Math.min(1, Math.max(0, (good / (good + backtracks + cfg.epsilon)) * (1 - retries / (n - 1))));
}

/** Φtemp from scratch: Laplace-smoothed stage shares of the three windows, 1 − mean Jensen-Shannon divergence (bits). */
function temporal(states: readonly State[], reference: Reference): number {
  const ref = reference.kind === 'pta' ? referenceWindows(reference.pta) : reference.prior.windows;
  const n = states.length;
  const cuts = [0, Math.floor(n / 3), Math.floor((2 * n) / 3), n];
  const kl = (p: number, m: number) => (p > 0 ? p * Math.log2(p / m) : 0);
  let divergence = 0;
  for (let w = 0; w < 3; w++) {
    const window = states.slice(cuts[w], cuts[w + 1]);
    const p: StageDist =
      window.length === 0
        ? [0.25, 0.25, 0.25, 0.25]
        : ((['E', 'I', 'V', 'O'] as const).map((stage) => (window.filter((s) => s.stage === stage).length + cfg.alpha) / (window.length + 4 * cfg.alpha)) as StageDist);
    const q = ref[w]!;
    let jsd = 0;
    for (let k = 0; k < 4; k++) jsd += 0.5 * kl(p[k]!, (p[k]! + q[k]!) / 2) + 0.5 * kl(q[k]!, (p[k]! + q[k]!) / 2);
    divergence += Math.min(1, Math.max(0, jsd));
  }
  return 1 - divergence / 3;
}

/** Φstruct and Φcov from scratch: a maximum matching by augmenting paths, greedy ordered recall per reference path. */
function structural(states: readonly State[], pta: Pta): { struct: number; cov: number } {
  const nodes = pta.nodes.filter((n) => n.state !== null && n.state.stage !== 'O');
  const column = new Map(nodes.map((n, j) => [n.id, j]));
  const candidates = states.filter((s) => s.stage !== 'O');
  const edges = candidates.map((c) => nodes.flatMap((n, j) => (equivalent(n.state!, c, cfg.tau) ? [j] : [])));
  const matchOf = new Array<number>(nodes.length).fill(-1);
  const augment = (u: number, seen: Set<number>): boolean =>
    edges[u]!.some((v) => {
      if (seen.has(v)) return false;
      seen.add(v);
      if (matchOf[v] === -1 || augment(matchOf[v]!, seen)) {
        matchOf[v] = u;
        return true;
      }
      return false;
    });
  let matched = 0;
  for (let u = 0; u < candidates.length; u++) if (augment(u, new Set())) matched++;
  let recall = 0;
  for (const path of ptaPaths(pta).map((p) => p.flatMap((id) => (column.has(id) ? [column.get(id)!] : [])))) {
    if (path.length === 0) continue;
    let at = 0;
    let hits = 0;
    for (const edge of edges) {
      const j = path.findIndex((v, k) => k >= at && edge.includes(v));
      if (j >= 0) {
        hits++;
        at = j + 1;
      }
    }
    recall = Math.max(recall, hits / path.length);
  }
  const precision = candidates.length === 0 ? 0 : matched / candidates.length;
  const struct = precision + recall === 0 ? 0 : (100 * 2 * precision * recall) / (precision + recall);
  return { struct, cov: nodes.length === 0 ? 0 : (100 * matched) / nodes.length };
}

/** Φfocus, Φverify, Φbrevity, Φedit, Φsettle from scratch (`sourceEdits`: each state's label flag). */
function priorSignals(states: readonly State[], sourceEdits: readonly boolean[]) {
  const n = states.length;
  if (n === 0) return { focus: 0, verify: 0, brevity: 0, edit: 0, settle: 0 };
  const lastChange = states.findLastIndex((s) => s.changesFile);
  const verified = lastChange >= 0 && states.slice(lastChange + 1).some((s) => s.stage === 'V');
  // The exploration streak: E states since the last I or V state (O states neither extend nor end it).
  const sinceWork = states.slice(states.findLastIndex((s) => s.stage === 'I' || s.stage === 'V') + 1);
  const streak = sinceWork.filter((s) => s.stage === 'E').length;
  return {
    focus: 1 - states.filter((s) => s.stage === 'E').length / n,
    verify: verified ? 1 : 0,
    brevity: cfg.brevitySteps / (cfg.brevitySteps + n),
    edit: sourceEdits.slice(0, n).some(Boolean) ? 1 : 0,
    settle: SETTLE_STEPS / (SETTLE_STEPS + streak),
  };
}

interface SignalCase {
  /** The online tracker for a reference (fed each state with its label's `sourceEdit`); undefined where the signal does not apply. */
  online(reference: Reference): SignalTracker<unknown, [sourceEdit: boolean]> | undefined;
  batch(states: readonly State[], reference: Reference, sourceEdits: readonly boolean[]): unknown;
}

/** Every tracker of src/core/signals, by the name of its factory. */
const CASES: Record<string, SignalCase> = {
  createCoherenceTracker: { online: () => createCoherenceTracker(cfg.epsilon), batch: coherence },
  createTemporalTracker: {
    online: (r) => createTemporalTracker(r.kind === 'pta' ? referenceWindows(r.pta) : r.prior.windows, cfg.alpha),
    batch: temporal,
  },
  createStructuralTracker: {
    online: (r) => (r.kind === 'pta' ? createStructuralTracker(r.pta, cfg.tau) : undefined),
    batch: (states, r) => (r.kind === 'pta' ? structural(states, r.pta) : undefined),
  },
  createPriorSignalTracker: { online: () => createPriorSignalTracker(cfg.brevitySteps), batch: (states, _r, edits) => priorSignals(states, edits) },
};

/** Numbers equal to 12 decimals, anywhere inside the value. */
function expectClose(online: unknown, batch: unknown, where: string): void {
  if (typeof online === 'number') {
    expect(online, where).toBeCloseTo(batch as number, 12);
    return;
  }
  const o = online as Record<string, number>;
  const b = batch as Record<string, number>;
  expect(Object.keys(o).sort(), where).toEqual(Object.keys(b).sort());
  for (const k of Object.keys(o)) expect(o[k], `${where} ${k}`).toBeCloseTo(b[k]!, 12);
}

const analyzers = defaultAnalyzers();
const runs = corpusRuns().map((r) => {
  const results = scoreSteps(r.steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers }).results;
  return { name: r.name, states: results.map((x) => x.state), sourceEdits: results.map((x) => x.label.sourceEdit) };
});
const longest = [...runs].sort((a, b) => b.states.length - a.states.length);
const pta = buildPta('mixed', [longest[0]!.states, longest[1]!.states, longest[2]!.states]);
const REFERENCES: ReadonlyArray<[string, Reference]> = [
  ['prior', { kind: 'prior', prior: UNIFORM_PRIOR }],
  ['pta', { kind: 'pta', pta }],
];

describe('signal trackers', () => {
  it('each factory of src/core/signals has its case in this suite', async () => {
    const dir = new URL('../../src/core/signals/', import.meta.url);
    const factories: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const mod = (await import(new URL(file, dir).href)) as Record<string, unknown>;
      factories.push(...Object.keys(mod).filter((k) => /^create\w+Tracker$/.test(k) && typeof mod[k] === 'function'));
    }
    expect(factories.sort()).toEqual(Object.keys(CASES).sort());
  });
});

describe.each(Object.keys(CASES).map((k) => [k]))('signal conformance: %s', (factory) => {
  const signal = CASES[factory]!;

  it.each(REFERENCES)('online equals batch at every prefix of every corpus run (%s)', (_name, reference) => {
    let prefixes = 0;
    for (const { name, states, sourceEdits } of runs) {
      const tracker = signal.online(reference);
      if (tracker === undefined) return;
      expectClose(tracker.value(), signal.batch([], reference, []), `${name} before any step`);
      states.forEach((state, i) => {
        tracker.add(state, sourceEdits[i]!);
        expectClose(tracker.value(), signal.batch(states.slice(0, i + 1), reference, sourceEdits), `${name} step ${i}`);
        prefixes++;
      });
    }
    expect(prefixes).toBeGreaterThan(1900);
  });
});
