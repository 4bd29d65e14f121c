/**
 * Short names for the runs a table lists: each run's shortest path suffix no other run ends with (its file name when
 * that is unique), so `rank` of runs under one long folder prints `cost_2_1/x.traj`, not the whole path.
 * --json keeps the ids as given.
 */

/** The last `n` segments of a path ('/' or '\\' separated). */
const tail = (segments: readonly string[], n: number): string => segments.slice(-n).join('/');

/** id → shortest unique suffix; an id that is a suffix of another (a/x and x) keeps its whole self. */
export function shortRunNames(ids: readonly string[]): Map<string, string> {
  const split = ids.map((id) => id.split(/[\\/]+/).filter((s) => s !== '' && s !== '.'));
  const out = new Map<string, string>();
  split.forEach((segments, i) => {
    const id = ids[i]!;
    for (let n = 1; n <= segments.length; n++) {
      const mine = tail(segments, n);
      const shared = split.some((other, j) => j !== i && other.length >= n && tail(other, n) === mine);
      if (!shared) return void out.set(id, mine);
    }
    out.set(id, id);
  });
  return out;
}
