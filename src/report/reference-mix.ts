/**
 * Which kinds of reference a source's passing and failing runs were scored against. A run of a task with too few
 * passing runs is scored against a stored PTA or reference-free (score-corpus.ts), and every scored run enters the
 * same tiers and statistics. When a source's scored pass/fail runs span more than one kind (typically: its PTA-scored
 * runs are the all-pass tasks' passes and its failing runs are reference-free), some of its pass/fail pairs compare
 * scores of different composites, and its AUROC partly measures the kind of reference, not the run. Best-of-N
 * picks within one task, so each pick meets one kind; a source whose groups span kinds is named too, since its
 * rates average picks by different composites.
 */
import { REFERENCE_KINDS, type ReferenceKind, type ReferenceKindMix, type SelectionRow, type TrajectoryRow } from './types.js';

const zero = (): Record<ReferenceKind, number> => ({ 'in-folder': 0, external: 0, 'reference-free': 0 });

/** The sources whose scored passing and failing runs were scored against more than one kind of reference, by source name. */
export function referenceKindMix(rows: readonly TrajectoryRow[]): ReferenceKindMix[] {
  const bySource = new Map<string, ReferenceKindMix>();
  for (const r of rows) {
    if (r.reference === undefined || (r.outcome !== 'pass' && r.outcome !== 'fail')) continue;
    const mix = bySource.get(r.source) ?? { source: r.source, passing: zero(), failing: zero() };
    bySource.set(r.source, mix);
    (r.outcome === 'pass' ? mix.passing : mix.failing)[r.reference.kind]++;
  }
  const total = (c: Record<ReferenceKind, number>) => REFERENCE_KINDS.reduce((n, k) => n + c[k], 0);
  return [...bySource.values()]
    .filter((m) => total(m.passing) > 0 && total(m.failing) > 0 && REFERENCE_KINDS.filter((k) => m.passing[k] + m.failing[k] > 0).length > 1)
    .sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}

const counts = (c: Record<ReferenceKind, number>) => {
  const kinds = REFERENCE_KINDS.filter((k) => c[k] > 0).map((k) => `${c[k]} ${k}`);
  return kinds.length > 0 ? kinds.join(', ') : 'none';
};

/** The report's warning line for one such source. */
export function referenceKindMixLine(m: ReferenceKindMix): string {
  return (
    `warning: source ${m.source}: passing runs scored ${counts(m.passing)}; failing runs ${counts(m.failing)}: its AUROC and tier shares ` +
    `pool scores against different kinds of reference, so they partly measure the kind of reference (--by-reference gives each kind alone)`
  );
}

/**
 * The headline's lines for the mixed sources: one each for those in the within-source mean (at least `minPerClass`
 * passing and failing runs), where the mix moves a headline figure; one line naming all the others, whose AUROC the
 * headline does not show (on ../shared, 11 lines became 6). report.json keeps every source's counts.
 */
export function referenceKindMixLines(mixes: readonly ReferenceKindMix[], minPerClass: number): string[] {
  const total = (c: Record<ReferenceKind, number>) => REFERENCE_KINDS.reduce((n, k) => n + c[k], 0);
  const counted = mixes.filter((m) => total(m.passing) >= minPerClass && total(m.failing) >= minPerClass);
  const others = mixes.filter((m) => !counted.includes(m));
  return [
    ...counted.map(referenceKindMixLine),
    ...(others.length > 0
      ? [
          `warning: ${others.length === 1 ? '1 more source' : `${others.length} more sources`} (fewer than ${minPerClass} passing or failing runs: not in the ` +
            `within-source mean) pool${others.length === 1 ? 's' : ''} scores against different kinds of reference: ${others.map((m) => m.source).join('; ')} ` +
            `(report.json referenceKindMix has the counts; --by-reference gives each kind alone)`,
        ]
      : []),
  ];
}

/** The kinds a best-of-N row's groups met, with their counts (`2 in-folder, 1 reference-free`); null when one kind or none. */
export function groupKindsText(s: SelectionRow): string | null {
  const kinds = REFERENCE_KINDS.filter((k) => s.groupsByReference[k] > 0);
  return kinds.length > 1 ? kinds.map((k) => `${s.groupsByReference[k]} ${k}`).join(', ') : null;
}

/**
 * The warning lines for the sources whose best-of-N groups by the composite met more than one kind of reference.
 * Each pick is fair (one task's runs meet one kind), but the source's rate averages picks made by different
 * composites. pPass rows are left out: no forecaster feature reads a PTA (core/forecast/features.ts).
 */
export function selectionKindMixLines(selection: readonly SelectionRow[]): string[] {
  return selection.flatMap((s) => {
    const kinds = s.score === 'total' && s.source !== 'all' ? groupKindsText(s) : null;
    if (kinds === null) return [];
    return [
      `warning: source ${s.source}: its best-of-N by the composite score pools ${s.groups} groups scored against different kinds of reference ` +
        `(${kinds}): each pick is within one kind, but the rates mix picks by different composites (--by-reference gives each kind alone)`,
    ];
  });
}
