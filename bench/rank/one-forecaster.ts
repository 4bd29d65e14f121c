/**
 * pPass of one group for bench/rank.ts. The bench scores each run with a forecaster that never saw the run's set
 * (`--forecast-trials` for SWE-agent 0.x + gpt-4's runs, `--forecast-others` for every other run). A group that
 * holds runs of both sets (the descriptive "calibration, by task" set: SWE-agent 0.x + gpt-4 beside CodeR and the
 * others) would be ordered by two forecasters at once, whose pPass levels differ, and each of which was trained on
 * the other part's source: such a group's order means nothing, so it gets no pPass at all.
 */

/** The pPass of each run of `group` when one forecaster scored every run of it; otherwise NaN for each (no score). */
export function oneForecasterPPass<R>(group: readonly R[], pPass: ReadonlyMap<R, number>, forecasterOf: ReadonlyMap<R, string>): number[] {
  const names = new Set(group.map((r) => forecasterOf.get(r)));
  if (names.size !== 1 || names.has(undefined)) return group.map(() => Number.NaN);
  return group.map((r) => pPass.get(r) ?? Number.NaN);
}
