/**
 * The one conformance suite of the waste-detector extension point (`WasteDetector`,
 * src/core/waste/detector.ts), run for every detector of WASTE_DETECTORS over every real
 * run of the corpus, with and without a PTA's file list. Per-category behaviour is pinned
 * in waste.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, resolveConfig } from '../../src/core/config.js';
import type { WasteSettings } from '../../src/core/config.js';
import type { State, WasteItem } from '../../src/core/types.js';
import { WASTE_DETECTORS, ptaFileSet, wasteReport, type WasteContext } from '../../src/core/waste/index.js';
import { corpusRuns, extraRuns, statesOf } from '../fixtures/corpus-runs.js';

const runs = [...corpusRuns(), ...extraRuns()].map((r) => ({ name: r.name, states: statesOf(r.steps) }));
/** A reference file list: the files the first runs change (a PTA's `files` in miniature). */
const ptaFiles = [...new Set(runs.slice(0, 10).flatMap((r) => r.states.filter((s) => s.changesFile && s.file !== undefined).map((s) => s.file!)))];
/** The default settings, and the most sensitive ones the config allows (so every pattern shows up in real runs). */
const SENSITIVE: WasteSettings = { regressionMinCycles: 2, cycleMinBlock: 2, cycleMaxBlock: 6, cycleMinRepeats: 2 };
const MODES: ReadonlyArray<[string, readonly string[] | undefined, WasteSettings]> = [
  ['reference-free, default settings', undefined, DEFAULT_CONFIG.waste],
  ['PTA files, default settings', ptaFiles, DEFAULT_CONFIG.waste],
  ['reference-free, sensitive settings', undefined, SENSITIVE],
  ['PTA files, sensitive settings', ptaFiles, SENSITIVE],
];

function context(states: readonly State[], files: readonly string[] | undefined, settings: WasteSettings, found: readonly WasteItem[] = []): WasteContext {
  return { settings, tau: DEFAULT_CONFIG.tau, ...(files ? { ptaFiles: files } : {}), byT: new Map(states.map((s) => [s.t, s] as const)), found };
}

/** Each detector's items as the report gets them: each detector sees the items of those before it. */
function findAll(states: readonly State[], files: readonly string[] | undefined, settings: WasteSettings): WasteItem[][] {
  const found: WasteItem[] = [];
  return WASTE_DETECTORS.map((d) => {
    const items = d.find(states, context(states, files, settings, [...found]));
    found.push(...items);
    return items;
  });
}

describe('waste detectors', () => {
  it('run with the most sensitive settings the config accepts', () => {
    expect(resolveConfig({ waste: SENSITIVE }).ok).toBe(true);
    expect(resolveConfig({ waste: { ...SENSITIVE, regressionMinCycles: 1 } }).ok).toBe(false);
    expect(resolveConfig({ waste: { ...SENSITIVE, cycleMinRepeats: 1 } }).ok).toBe(false);
    expect(resolveConfig({ waste: { ...SENSITIVE, cycleMinBlock: 1 } }).ok).toBe(false);
  });

  it('cover each category once, in report order', () => {
    expect(WASTE_DETECTORS.map((d) => d.category)).toEqual(['regression_loop', 'blind_retry', 'redundant_step', 'irrelevant_exploration', 'cyclic_pattern']);
  });

  it('make up the waste report: it is their items, in turn', () => {
    for (const [, files, settings] of MODES) {
      for (const { states } of runs) expect(wasteReport(states, { settings, tau: DEFAULT_CONFIG.tau, ...(files ? { ptaFiles: files } : {}) })).toEqual(findAll(states, files, settings).flat());
    }
  });

  it("make up the report with a PTA's file set given (a scorer's, kept per list) as with the list alone", () => {
    const set = ptaFileSet(ptaFiles);
    expect(ptaFileSet(ptaFiles)).toBe(set);
    expect([...set]).toEqual([...new Set(ptaFiles)]);
    expect(ptaFileSet([...ptaFiles])).not.toBe(set);
    let items = 0;
    for (const { states } of runs) {
      const report = wasteReport(states, { settings: SENSITIVE, tau: DEFAULT_CONFIG.tau, ptaFiles, ptaFileSet: set });
      expect(report).toEqual(findAll(states, ptaFiles, SENSITIVE).flat());
      items += report.filter((i) => i.category === 'irrelevant_exploration').length;
    }
    expect(items).toBeGreaterThan(0);
  });

  it('look states up by their step index when it is not their place in the list (the report keeps no map otherwise)', () => {
    let items = 0;
    for (const { states } of runs.slice(0, 25)) {
      // Indices shifted, and one state's index repeated by the next (the later state is the one an index names).
      const moved = states.map((s, i) => ({ ...s, t: i === 3 ? s.t + 1001 : s.t + 1000 }));
      for (const [, files, settings] of MODES) {
        const report = wasteReport(moved, { settings, tau: DEFAULT_CONFIG.tau, ...(files ? { ptaFiles: files } : {}) });
        expect(report).toEqual(findAll(moved, files, settings).flat());
        items += report.length;
      }
    }
    expect(items).toBeGreaterThan(0);
  });
});

describe.each(WASTE_DETECTORS.map((d, i) => [d.category, i] as const))('waste detector conformance: %s', (category, index) => {
  const detector = WASTE_DETECTORS[index]!;

  it('finds nothing in no states', () => {
    expect(detector.find([], context([], undefined, DEFAULT_CONFIG.waste))).toEqual([]);
  });

  let items = 0;
  it.each(MODES)('on every corpus run (%s): items of its category, localised by the item convention', (_mode, files, settings) => {
    for (const { name, states } of runs) {
      const byT = new Map(states.map((s) => [s.t, s] as const));
      const found = findAll(states, files, settings)[index]!;
      items += found.length;
      for (const item of found) {
        const where = `${name}: ${JSON.stringify(item)}`;
        expect(item.category, where).toBe(category);
        expect(
          item.steps.every((t, i) => byT.has(t) && (i === 0 || t > item.steps[i - 1]!)),
          where,
        ).toBe(true);
        expect(item.wastedSteps, where).toBeGreaterThanOrEqual(1);
        expect(item.wastedSteps, where).toBeLessThanOrEqual(item.steps.length);
        const wasted = item.steps.slice(item.steps.length - item.wastedSteps).map((t) => byT.get(t)!);
        expect(item.wastedTokens, where).toBe(wasted.reduce((sum, s) => sum + s.cost, 0));
        expect(item.tool, where).toBe(wasted[0]!.tool || wasted[0]!.kind);
      }
    }
  });

  it('meets its pattern in real runs (a detector that never fires here would not be tested by this suite)', () => {
    expect(items, `${category} found nothing in the corpus`).toBeGreaterThan(0);
  });

  it('is deterministic and leaves its input alone', () => {
    for (const { states } of runs.slice(0, 15)) {
      const frozen = states.map((s) => Object.freeze({ ...s }));
      const ctx = context(frozen, ptaFiles, SENSITIVE, findAll(frozen, ptaFiles, SENSITIVE).slice(0, index).flat());
      expect(detector.find(frozen, ctx)).toEqual(detector.find(frozen, ctx));
    }
  });
});
