/**
 * Ranking a group of runs of one task (issue 26 item 3; docs/rank.md): best first, ties marked,
 * each run with what it was scored by. The group is ordered by the first of these that every run has:
 * 1. `pPass`: the forecaster's P(pass) (a forecast model was loaded);
 * 2. `pta`: the composite against the task's reference (PTA);
 * 3. `consensus` (only when asked): agreement with the group's other runs on where to edit
 *    (consensus.ts), ties broken by the composite; or `vote` (only when asked): how many runs of the group made
 *    the same normalised final patch (vote.ts, Agentless-style), ties broken by the composite;
 * 4. `reference-free`: the composite against the prior (the default without 1 and 2: the consensus did
 *    no better on best-of-N and the basis chosen on one set of groups did worse held out, docs/rank.md);
 * `mixed` when runs were scored against different references (each run names its own).
 * A group whose runs name different tasks is refused unless `mixedTasks`.
 */
import { err, ok, type Result } from '../../errors.js';
import type { ReferenceInfo } from '../types.js';
import { consensusScores } from './consensus.js';
import type { PatchClass } from './patch-class.js';
import { voteByKey } from './vote.js';

/** One run as scored: its composite total (0-100), reference, pPass when a forecaster was loaded, and edit locations (`locationItems`). */
export interface RankInput {
  id: string;
  task?: string | undefined;
  composite: number;
  reference: ReferenceInfo;
  pPass?: number | undefined;
  /** The run is one the forecaster was trained on (its pPass is in-sample), where the caller can tell. */
  pPassInSample?: boolean | undefined;
  steps: number;
  locations: readonly string[];
  /**
   * The class of its normalised final patch (patch-class.ts, of `createFinalPatchTracker`'s lines or of the diff a
   * live session's `end` carried): what basis `vote` compares; absent where unknown (a session ended without one).
   */
  patch?: PatchClass | undefined;
  /** A live session not ended yet: its score is of its steps so far, not of a finished run. */
  open?: boolean | undefined;
}

export type RankBasis = 'pPass' | 'pta' | 'consensus' | 'vote' | 'reference-free' | 'mixed';

/** The bases a caller may ask for where there is no forecast and no PTA (the others follow from what the runs have). */
export const ASKED_BASES = ['consensus', 'vote'] as const;
export type AskedBasis = (typeof ASKED_BASES)[number];

export interface RankedRun {
  /** Position of the run in the input. */
  index: number;
  id: string;
  task?: string;
  /** 1 = best; tied runs share the rank of the first of them (1, 1, 3). */
  rank: number;
  tied: boolean;
  /** The value the group is ordered by (pPass in [0, 1], a composite in [0, 100], a consensus in [0, 1]). */
  score: number;
  composite: number;
  reference: ReferenceInfo;
  pPass?: number;
  pPassInSample?: boolean;
  /** Mean similarity of its edit locations to the other runs' (basis `consensus` only). */
  consensus?: number;
  /** Runs of the group, itself included, whose normalised final patch is the same as its own; 0: an empty patch (basis `vote` only). */
  vote?: number;
  steps: number;
  /** True for a session not ended yet (scored on its steps so far); absent for a finished run. */
  open?: true;
}

/** A run left out of the order, with why (a rollout that timed out before its first step). */
export interface UnrankedRun {
  index: number;
  id: string;
  task?: string;
  reason: string;
}

export interface Ranking {
  /** The group's task (null when no run names one). */
  task: string | null;
  by: RankBasis;
  runs: RankedRun[];
  /** Runs with no step: not ranked (nothing to score), named so that a group is never cut silently. */
  unranked: UnrankedRun[];
  /**
   * Basis consensus or vote, 2 runs or more, every run with the same value (every vote 1: no two runs made one patch;
   * two runs' consensus is one Jaccard similarity): the basis decided nothing, the order is the composite's alone.
   */
  basisFlat?: true;
  /**
   * Exactly one run ranked (the others, if any, unranked): its rank 1 orders nothing. The rank stays 1 (an int, 1 =
   * best, for readers that sort or pick by it, e.g. a group of one rollout); this says there was no ranking.
   */
  oneRun?: true;
}

export interface RankOptions {
  /** Use the group's consensus where there is no forecast and no PTA (the same as `basis: 'consensus'`). */
  consensus?: boolean;
  /** The basis to use where there is no forecast and no PTA: the consensus of edit locations, or the vote on final patches. */
  basis?: AskedBasis | undefined;
  /** Rank runs of different tasks anyway. */
  mixedTasks?: boolean;
  /** How the caller asks for mixed tasks (`--mixed-tasks`, `"mixedTasks": true`), named in the error. */
  mixedTasksHint?: string;
  /** The consensus of {@link consensusFootprints}' footprints, computed by the caller in steps (the server, T71). */
  agreement?: readonly number[];
}

export interface RankError {
  code: 'mixed_tasks' | 'bad_message' | 'bad_input';
  message: string;
}

/**
 * The one task the runs name (runs naming none join it; null when none names one), or, for runs of
 * several tasks, an error naming each task with its runs (null too when `mixedTasks`).
 */
export function groupTask(runs: ReadonlyArray<{ id: string; task?: string | undefined }>, mixedTasks = false, hint = 'mixedTasks'): Result<string | null, RankError> {
  const byTask = new Map<string, string[]>();
  for (const r of runs) if (r.task !== undefined) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r.id]);
  if (byTask.size <= 1) return ok([...byTask.keys()][0] ?? null);
  if (mixedTasks) return ok(null);
  const list = [...byTask].map(([t, ids]) => `${t} (${ids.join(', ')})`).join('; ');
  return err({ code: 'mixed_tasks', message: `the runs are of ${byTask.size} tasks: ${list}; rank compares runs of one task (${hint} ranks them anyway)` });
}

function basisOf(runs: readonly RankInput[], asked: AskedBasis | undefined): RankBasis {
  if (runs.every((r) => r.pPass !== undefined)) return 'pPass';
  if (runs.every((r) => r.reference.kind === 'pta')) return 'pta';
  if (asked !== undefined) return asked;
  return runs.every((r) => r.reference.kind === 'prior') ? 'reference-free' : 'mixed';
}

/**
 * Orders `runs` best first (stable: equal runs keep their input order). A run with no step is not ranked but listed
 * in `unranked` (an RL group with one timed-out rollout still ranks the others); a group with no step at all is
 * refused.
 */
export function rankRuns(all: readonly RankInput[], options: RankOptions = {}): Result<Ranking, RankError> {
  if (all.length === 0) return err({ code: 'bad_message', message: 'no run to rank' });
  // One name for two runs (a session listed twice, one id given to two runs) leaves the answer ambiguous.
  const dup = all.findIndex((r, i) => all.findIndex((q) => q.id === r.id) < i);
  if (dup >= 0)
    return err({ code: 'bad_message', message: `runs[${all.findIndex((q) => q.id === all[dup]!.id)}] and runs[${dup}] are both named ${all[dup]!.id}: each run is ranked once, under its own name` });
  const task = groupTask(all, options.mixedTasks, options.mixedTasksHint);
  if (!task.ok) return task;
  const positions = all.map((_, i) => i).filter((i) => all[i]!.steps > 0);
  const unranked: UnrankedRun[] = all.flatMap((r, i) => (r.steps > 0 ? [] : [{ index: i, id: r.id, ...(r.task !== undefined ? { task: r.task } : {}), reason: 'no steps' }]));
  if (positions.length === 0) return err({ code: 'bad_input', message: `no run has a step: ${all.map((r) => r.id).join(', ')}` });
  const runs = positions.map((i) => all[i]!);
  if (options.consensus === true && options.basis !== undefined && options.basis !== 'consensus')
    return err({ code: 'bad_message', message: `consensus and basis ${options.basis} were both asked: give one basis` });
  const by = basisOf(runs, options.basis ?? (options.consensus === true ? 'consensus' : undefined));
  const given = options.agreement?.length === runs.length ? options.agreement : undefined;
  const agreement = by === 'consensus' ? (given ?? consensusScores(footprints(runs))) : undefined;
  const missing = by === 'vote' ? runs.filter((r) => r.patch === undefined).map((r) => r.id) : [];
  if (missing.length > 0) {
    const why = 'a session keeps no step text: end it with its patch (the end message\'s "patch", the git diff of its work), or give its trajectory';
    return err({ code: 'bad_input', message: `cannot rank by vote: no final patch is known for ${missing.join(', ')} (${why})` });
  }
  const votes = by === 'vote' ? voteByKey(runs.map((r) => r.patch!.key)) : undefined; // every run has one (checked above)
  // The sort key: the basis value, then (consensus, vote) the composite.
  const second = agreement ?? votes;
  const keys = runs.map((r, i): [number, number] => (by === 'pPass' ? [r.pPass!, 0] : second !== undefined ? [second[i]!, r.composite] : [r.composite, 0]));
  // A NaN is in no order (every comparison with it is false, so the sort leaves it where it was): refuse, never print it ranked.
  const bad = runs.flatMap((r, i) => (keys[i]!.every(Number.isFinite) ? [] : [`${r.id} (${by === 'pPass' ? 'pPass' : 'score'} ${keys[i]![0]}, composite ${r.composite})`]));
  if (bad.length > 0) return err({ code: 'bad_input', message: `cannot rank by ${by}: no finite score for ${bad.join(', ')}` });
  // Equal up to rounding: the same value computed along two paths is one value (the order too: a consensus of
  // 0.39999999999999997 and one of 0.4, the same sum in another order, are equal, and the composite decides).
  const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
  const desc = (x: number, y: number) => (close(x, y) ? 0 : y - x);
  const order = runs.map((_, i) => i).sort((a, b) => desc(keys[a]![0], keys[b]![0]) || desc(keys[a]![1], keys[b]![1]) || a - b);
  const same = (a: number, b: number) => close(keys[a]![0], keys[b]![0]) && close(keys[a]![1], keys[b]![1]);
  const ranked: RankedRun[] = [];
  order.forEach((i, k) => {
    const r = runs[i]!;
    const prev = k > 0 ? order[k - 1]! : undefined;
    const next = k + 1 < order.length ? order[k + 1]! : undefined;
    const rank = prev !== undefined && same(prev, i) ? ranked[k - 1]!.rank : k + 1;
    ranked.push({
      index: positions[i]!,
      id: r.id,
      ...(r.task !== undefined ? { task: r.task } : {}),
      rank,
      tied: (prev !== undefined && same(prev, i)) || (next !== undefined && same(next, i)),
      score: keys[i]![0],
      composite: r.composite,
      reference: r.reference,
      ...(r.pPass !== undefined ? { pPass: r.pPass } : {}),
      ...(r.pPassInSample !== undefined ? { pPassInSample: r.pPassInSample } : {}),
      ...(agreement !== undefined ? { consensus: agreement[i]! } : {}),
      ...(votes !== undefined ? { vote: votes[i]! } : {}),
      steps: r.steps,
      ...(r.open === true ? { open: true as const } : {}),
    });
  });
  const flat = second !== undefined && runs.length > 1 && keys.every((k) => close(k[0], keys[0]![0]));
  return ok({ task: task.value, by, runs: ranked, unranked, ...(flat ? { basisFlat: true as const } : {}), ...(ranked.length === 1 ? { oneRun: true as const } : {}) });
}

/**
 * The footprints {@link rankRuns} takes the consensus of (those of the runs with a step, in order) when its basis
 * will be the consensus; undefined when it will not (a caller computing the consensus in steps passes it back as
 * `agreement`).
 */
export function consensusFootprints(all: readonly RankInput[], options: RankOptions = {}): Array<ReadonlySet<string>> | undefined {
  const runs = all.filter((r) => r.steps > 0);
  if (runs.length === 0 || (options.consensus === true && options.basis !== undefined && options.basis !== 'consensus')) return undefined;
  return basisOf(runs, options.basis ?? (options.consensus === true ? 'consensus' : undefined)) === 'consensus' ? footprints(runs) : undefined;
}

/** Each run's locations as a set; runs sharing one list (a session named twice) share one set. */
function footprints(runs: readonly RankInput[]): Array<ReadonlySet<string>> {
  const sets = new Map<readonly string[], ReadonlySet<string>>();
  return runs.map((r) => {
    let set = sets.get(r.locations);
    if (set === undefined) sets.set(r.locations, (set = new Set(r.locations)));
    return set;
  });
}
