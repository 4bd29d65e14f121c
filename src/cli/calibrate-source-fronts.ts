/**
 * Each source's own trade-off front beside the pooled one (ece29). The pooled front mixes sources whose false-stop
 * rates differ (one source's passing runs can carry every stop), so `calibrate` also runs the same grid on each
 * source's runs alone and prints its front, with its n. A source with too few passing runs for any stop to meet the
 * bound (the choice's `passingNeeded`: 59 at ≤ 5 %, 95 % Clopper-Pearson) is named with its n and no front: every
 * point of it would read "over the bound". In-sample, as the pooled front is.
 */
import { calibrateTradeoff, describeSettings, type GridPoint, type ModeName, type TradeoffOptions, type TradeoffRun } from '../core/calibrate/index.js';
import { HEADER, pointCells } from './calibrate-text.js';
import { renderTable } from './table.js';

export interface SourceFront {
  source: string;
  passing: number;
  failing: number;
  /** Passing runs a stop needs before it can meet the bound; the front is null below it. */
  passingNeeded: number;
  front: Record<ModeName, GridPoint[]> | null;
  maxFalseStop: number;
}

/** The front of each named source (sorted by name), computed with the pooled run's options. */
export function sourceFronts(runs: readonly TradeoffRun[], options: TradeoffOptions): SourceFront[] {
  const names = [...new Set(runs.flatMap((r) => (r.source == null ? [] : [r.source])))].sort();
  return names.flatMap((source) => {
    const own = runs.filter((r) => r.source === source);
    const t = calibrateTradeoff(own, options);
    if (!t.ok) return [];
    const c = t.value.choice;
    const { passing, failing } = t.value.runs;
    return [{ source, passing, failing, passingNeeded: c.passingNeeded, front: c.maxPassingStopped < 0 ? null : t.value.front, maxFalseStop: c.maxFalseStop }];
  });
}

/** The reference-free front of each source with enough passing runs, and one line naming the others with their n. */
export function sourceFrontsText(fronts: readonly SourceFront[]): string {
  if (fronts.length < 2) return '';
  const out: string[] = [];
  for (const f of fronts) {
    if (f.front === null) continue;
    out.push(`trade-off per source, ${f.source} alone (n ${f.passing} passing / ${f.failing} failing; its own Pareto front, reference-free; in-sample)`);
    out.push(
      renderTable(
        [...HEADER, 'within bound', 'policy'],
        f.front.referenceFree.map((p) => [...pointCells(p.modes.referenceFree), (p.modes.referenceFree.passingUpper ?? 1) <= f.maxFalseStop + 1e-12 ? 'yes' : 'no', describeSettings(p.settings)]),
      ),
    );
  }
  const few = fronts.filter((f) => f.front === null);
  if (few.length > 0)
    out.push(`no front of its own (fewer passing runs than a stop needs to meet the bound, ${few[0]!.passingNeeded}): ${few.map((f) => `${f.source} (n ${f.passing} / ${f.failing})`).join('; ')}`);
  return `${out.join('\n')}\n`;
}
