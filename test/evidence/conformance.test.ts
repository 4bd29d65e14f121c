/**
 * The conformance suite of the evidence trackers (src/core/evidence, issue 26): for every
 * tracker the folder exports, online equals batch at every prefix of every real corpus
 * run. "Batch" is the evidence computed from scratch on the prefix by its definition,
 * written here independently of the incremental code (caps included); both read the
 * same per-step facts (`stepEvidence`, tested on real output in runners.test.ts and
 * errors-patch.test.ts).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createErrorTracker } from '../../src/core/evidence/error-tracker.js';
import { createEvidenceTracker, EVIDENCE_NAMES } from '../../src/core/evidence/evidence.js';
import { createPatchTracker, MAX_PATCH_FILES } from '../../src/core/evidence/patch-tracker.js';
import { emptyStepEvidence, READ_ALL, stepEvidence, type StepEvidence } from '../../src/core/evidence/step-evidence.js';
import { createTargetTracker, MAX_EDITED_FILES, MAX_READ_FILES, MAX_TRACE_FILES, traceNames } from '../../src/core/evidence/target-tracker.js';
import { createCheckAfterEditTracker, createReproTracker, createTestResultTracker, MAX_RUN_KEYS } from '../../src/core/evidence/test-trackers.js';
import { createStateBuilder } from '../../src/core/state-builder.js';
import type { Label, State, Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

/** The first `cap` distinct values, in order of first appearance. */
const firstDistinct = (xs: Iterable<string>, cap: number): string[] => {
  const out: string[] = [];
  for (const x of xs) if (!out.includes(x) && out.length < cap) out.push(x);
  return out;
};
const lastIndex = (es: readonly StepEvidence[], p: (e: StepEvidence) => boolean) => es.findLastIndex(p);

function testResult(es: readonly StepEvidence[]) {
  const r = es.findLast((e) => e.testRun !== null)?.testRun;
  if (r == null) return { seen: 0, passed: 0, failed: 0, passShare: 0 };
  const bad = r.failed + r.errors > 0 || r.build === 'failure';
  const total = r.passed + r.failed + r.errors;
  return { seen: 1, passed: !bad && (r.passed > 0 || r.build === 'success') ? 1 : 0, failed: bad ? 1 : 0, passShare: total === 0 ? 0 : r.passed / total };
}

function checkAfterEdit(es: readonly StepEvidence[]): number {
  const edit = lastIndex(es, (e) => e.sourceEdit);
  if (edit < 0) return 0;
  const run = es.slice(edit).findLast((e) => e.run !== undefined)?.run;
  return run === undefined ? 0 : run.verdict === 'pass' ? 1 : -1;
}

function repro(es: readonly StepEvidence[]) {
  const firstEdit = es.findIndex((e) => e.sourceEdit);
  const before = firstEdit < 0 ? es : es.slice(0, firstEdit);
  const after = firstEdit < 0 ? [] : es.slice(firstEdit);
  const keys = firstDistinct(
    es.flatMap((e) => (e.run ? [e.run.key] : [])),
    MAX_RUN_KEYS,
  );
  const failed = keys.filter((k) => before.some((e) => e.run?.key === k && e.run.verdict === 'fail'));
  const flipped = failed.filter((k) => after.findLast((e) => e.run?.key === k)?.run?.verdict === 'pass');
  return { failedBeforeEdit: failed.length > 0 ? 1 : 0, flipped: flipped.length > 0 ? 1 : 0 };
}

function errors(es: readonly StepEvidence[]) {
  const edit = lastIndex(es, (e) => e.sourceEdit);
  const last = es.findLast((e) => e.error !== null || e.testRun !== null);
  return { sinceEdit: es.slice(Math.max(0, edit)).some((e) => e.error !== null) ? 1 : 0, last: last !== undefined && last.error !== null ? 1 : 0 };
}

function patch(es: readonly StepEvidence[]) {
  const submitted = es.findLast((e) => e.patch !== null)?.patch;
  const changes = es.flatMap((e) => (e.changed ? [e.changed] : []));
  const src = submitted
    ? {
        source: submitted.filter((f) => f.role === 'source').length,
        test: submitted.filter((f) => f.role === 'test').length,
        lines: submitted.filter((f) => f.role === 'source').reduce((n, f) => n + f.lines, 0),
      }
    : {
        source: firstDistinct(
          changes.filter((c) => c.role === 'source').map((c) => c.file),
          MAX_PATCH_FILES,
        ).length,
        test: changes.some((c) => c.role === 'test') ? 1 : 0,
        lines: changes.filter((c) => c.role === 'source').reduce((n, c) => n + c.lines, 0),
      };
  return { empty: src.source === 0 ? 1 : 0, testOnly: src.source === 0 && src.test > 0 ? 1 : 0, files: Math.log1p(src.source), lines: Math.log1p(src.lines), submitted: submitted ? 1 : 0 };
}

function target(es: readonly StepEvidence[]) {
  const edits = es.flatMap((e, j) => (e.changed?.role === 'source' ? [{ file: e.changed.file, j }] : []));
  const edited = firstDistinct(
    edits.map((x) => x.file),
    MAX_EDITED_FILES,
  );
  if (edited.length === 0) return { readShare: 0, traceShare: 0 };
  let read = 0;
  let traced = 0;
  for (const file of edited) {
    const j = edits.find((x) => x.file === file)!.j;
    const prior = es.slice(0, j);
    if (
      firstDistinct(
        prior.flatMap((e) => (e.read !== undefined ? [e.read] : [])),
        MAX_READ_FILES,
      ).includes(file)
    )
      read++;
    if (
      firstDistinct(
        prior.flatMap((e) => e.tracePaths),
        MAX_TRACE_FILES,
      ).some((p) => traceNames(p, file))
    )
      traced++;
  }
  return { readShare: read / edited.length, traceShare: traced / edited.length };
}

/** 0 for an empty patch, else 1 / (1 + ln(1 + source lines)). */
const src = (p: ReturnType<typeof patch>) => (p.empty === 1 ? 0 : 1 / (1 + p.lines));

function evidence(es: readonly StepEvidence[]) {
  const t = testResult(es);
  const r = repro(es);
  const e = errors(es);
  const p = patch(es);
  const g = target(es);
  const v: Record<string, number> = {
    testSeen: t.seen,
    testPassed: t.passed,
    testFailed: t.failed,
    testPassShare: t.passShare,
    checkAfterEdit: checkAfterEdit(es),
    reproFailedBeforeEdit: r.failedBeforeEdit,
    reproFlipped: r.flipped,
    errorSinceEdit: e.sinceEdit,
    errorLast: e.last,
    patchEmpty: p.empty,
    patchTestOnly: p.testOnly,
    patchFiles: p.files,
    patchLines: p.lines,
    patchCompact: src(p),
    editedReadShare: g.readShare,
    editedTraceShare: g.traceShare,
  };
  const vector = EVIDENCE_NAMES.map((k) => v[k]);
  return { values: v, vector, written: [0, ...vector] };
}

interface Fed {
  name: string;
  steps: Step[];
  states: State[];
  labels: Label[];
  facts: StepEvidence[];
}

const analyzers = defaultAnalyzers();
const runs: Fed[] = corpusRuns().map((r) => {
  const builder = createStateBuilder(analyzers);
  const out: Fed = { name: r.name, steps: r.steps, states: [], labels: [], facts: [] };
  for (const step of r.steps) {
    const { label, state } = builder.next(step);
    out.states.push(state);
    out.labels.push(label);
    out.facts.push(stepEvidence(step, state, label));
  }
  return out;
});

interface Case {
  online(): { feed(run: Fed, i: number): void; value(): unknown };
  batch(es: readonly StepEvidence[]): unknown;
}
const fromFacts = (t: { add(e: StepEvidence): void; value(): unknown }) => ({ feed: (run: Fed, i: number) => t.add(run.facts[i]!), value: () => t.value() });

/** Every tracker of src/core/evidence, by the name of its factory. */
const CASES: Record<string, Case> = {
  createTestResultTracker: { online: () => fromFacts(createTestResultTracker()), batch: testResult },
  createCheckAfterEditTracker: { online: () => fromFacts(createCheckAfterEditTracker()), batch: checkAfterEdit },
  createReproTracker: { online: () => fromFacts(createReproTracker()), batch: repro },
  createErrorTracker: { online: () => fromFacts(createErrorTracker()), batch: errors },
  createPatchTracker: { online: () => fromFacts(createPatchTracker()), batch: patch },
  createTargetTracker: { online: () => fromFacts(createTargetTracker()), batch: target },
  createEvidenceTracker: {
    online: () => {
      const t = createEvidenceTracker();
      // `write` at an offset (the forecaster's), beside a slot it must leave alone.
      const written = () => {
        const out = new Float64Array(EVIDENCE_NAMES.length + 1);
        t.write(out, 1);
        return [...out];
      };
      return { feed: (run, i) => t.add(run.steps[i]!, run.states[i]!, run.labels[i]!), value: () => ({ values: t.values(), vector: t.vector(), written: written() }) };
    },
    batch: evidence,
  },
};

describe('evidence trackers', () => {
  it('each factory of src/core/evidence has its case in this suite', async () => {
    const dir = new URL('../../src/core/evidence/', import.meta.url);
    const factories: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const mod = (await import(new URL(file, dir).href)) as Record<string, unknown>;
      factories.push(...Object.keys(mod).filter((k) => /^create\w+Tracker$/.test(k) && typeof mod[k] === 'function'));
    }
    expect(factories.sort()).toEqual(Object.keys(CASES).sort());
  });

  it('stepEvidence written into one reused object reads as a fresh one at every corpus step (what the tracker does)', () => {
    const into = emptyStepEvidence();
    let n = 0;
    for (const run of runs) {
      run.steps.forEach((step, i) => {
        const e = stepEvidence(step, run.states[i]!, run.labels[i]!, READ_ALL, into);
        expect(e).toBe(into);
        expect({ ...e }, `${run.name} step ${i}`).toEqual({ ...run.facts[i]! });
        n++;
      });
    }
    expect(n).toBeGreaterThan(1900);
  });
});

describe.each(Object.keys(CASES).map((k) => [k]))('evidence conformance: %s', (factory) => {
  const c = CASES[factory]!;
  it('online equals batch at every prefix of every corpus run', () => {
    let prefixes = 0;
    const seen = new Set<string>();
    for (const run of runs) {
      const t = c.online();
      expect(t.value(), `${run.name} before any step`).toEqual(c.batch([]));
      run.facts.forEach((_, i) => {
        t.feed(run, i);
        const v = t.value();
        expect(v, `${run.name} step ${i}`).toEqual(c.batch(run.facts.slice(0, i + 1)));
        seen.add(JSON.stringify(v));
        prefixes++;
      });
    }
    expect(prefixes).toBeGreaterThan(1900);
    // The corpus exercises the tracker: it takes more than one value.
    expect(seen.size).toBeGreaterThan(1);
  });
});

describe('an evidence tracker of some values only (a forecaster asks for its model’s)', () => {
  it.each([[['checkAfterEdit', 'reproFlipped', 'patchTestOnly', 'patchLines', 'patchCompact']], [['errorLast']], [['editedTraceShare']], [['testPassShare']], [[]]])(
    'tracks %j (and their groups) as the full tracker does at every prefix, the rest NaN',
    (names) => {
      let compared = 0;
      for (const run of runs) {
        const full = createEvidenceTracker();
        const some = createEvidenceTracker(names);
        run.steps.forEach((step, i) => {
          full.add(step, run.states[i]!, run.labels[i]!);
          some.add(step, run.states[i]!, run.labels[i]!);
          const all = full.values();
          const got = some.values();
          for (const k of EVIDENCE_NAMES) {
            if (names.includes(k)) expect(got[k], `${run.name} step ${i} ${k}`).toBe(all[k]);
            if (!Number.isNaN(got[k])) {
              expect(got[k], `${run.name} step ${i} ${k}`).toBe(all[k]);
              compared++;
            }
          }
          const out = new Float64Array(EVIDENCE_NAMES.length);
          some.write(out, 0);
          expect([...out]).toEqual(EVIDENCE_NAMES.map((k) => got[k]));
        });
      }
      if (names.length > 0) expect(compared).toBeGreaterThan(1900);
      else expect(compared).toBe(0);
    },
  );
});
