/**
 * The "mean" rows of train's per-source tables: a mean over sources says over how many, and a mean over one source
 * is that source's own row again, read as if it were a summary of several: none is printed then, with a line why.
 */

/** Per source: whether its row has any figure (a mean leaves out the sources without one). */
export interface SourceFigures {
  source: string;
  figures: ReadonlyArray<number | null>;
}

const counted = (rows: readonly SourceFigures[]) => rows.filter((r) => r.figures.some((x) => x !== null));

/** `mean (k sources)`, or null when fewer than 2 sources have a figure. */
export function meanLabel(rows: readonly SourceFigures[]): string | null {
  const k = counted(rows).length;
  return k >= 2 ? `mean (${k} sources)` : null;
}

/** Why a table has no mean row (null when it has one). */
export function noMeanNote(rows: readonly SourceFigures[]): string | null {
  const c = counted(rows);
  if (c.length >= 2) return null;
  return c.length === 1 ? `no mean row: only ${c[0]!.source} has figures, and a mean over one source is its own row` : 'no mean row: no source has figures';
}
