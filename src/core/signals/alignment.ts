/**
 * A trajectory's aligned path over a PTA, for drawing (the web view's task
 * page): which node each step matched in the maximum matching behind Φcov,
 * and the reference path that recalls the most of it in order (Φstruct's R).
 * Same equivalence, same O-state exclusion and the same per-PTA memo as the
 * structural tracker (structural.ts), so the picture shows
 * what was scored.
 */
import { structuralReference } from './structural-reference.js';
import { createIncrementalMatching } from './matching.js';
import { ptaPaths } from '../pta/paths.js';
import type { Pta } from '../scorer-api.js';
import type { State } from '../types.js';

/** One step of the trajectory and the PTA node it matched (null: none; O steps are never aligned). */
export interface AlignedStep {
  t: number;
  node: number | null;
}

export interface PtaAlignment {
  task: string;
  /** PTA version the path is drawn over. */
  version: number;
  steps: AlignedStep[];
  /** Node ids matched by some step (the Φcov matching). */
  matchedNodes: number[];
  /** The reference path (node ids, O nodes included) with the most in-order hits, and the nodes it hit. */
  bestPath: { nodes: number[]; hits: number[] } | null;
}

/** Aligns `states` against `pta` at equivalence threshold `tau`. */
export function alignToPta(pta: Pta, states: readonly State[], tau: number): PtaAlignment {
  const steps = alignToPtaInSteps(pta, states, tau);
  let r = steps.next();
  while (r.done !== true) r = steps.next();
  return r.value;
}

/**
 * {@link alignToPta} in steps: it yields after each state's equivalence scan (one pass over the PTA's nodes) and
 * each reference path, so a server can let other clients' work run between them. GET /v1/sessions/:id/alignment of
 * a tenant's 500-step session over its own 5,000-node PTA held the event loop 10.7 s in one go.
 */
export function* alignToPtaInSteps(pta: Pta, states: readonly State[], tau: number): Generator<void, PtaAlignment> {
  const ref = structuralReference(pta, tau);
  // nodeStates are the non-O node states in node order: index j is the j-th such node.
  const ids: number[] = [];
  for (const n of pta.nodes) if (n.state !== null && n.state.stage !== 'O') ids.push(n.id);
  const matching = createIncrementalMatching(ref.nodeStates.length);
  /** Index in `states` of each left vertex (non-O state) of the matching. */
  const left: number[] = [];
  const adjacency: Array<readonly number[]> = [];
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!; // i < length
    if (s.stage === 'O') continue;
    const adjacent = ref.adjacent(s);
    adjacency.push(adjacent);
    left.push(i);
    matching.addLeft(adjacent);
    yield;
  }
  const nodeAt: Array<number | null> = states.map(() => null);
  // Right to left: the matching keeps only the right side's partners (one per node).
  for (let j = 0; j < ids.length; j++) {
    const u = matching.matchOfRight(j);
    if (u >= 0) nodeAt[left[u]!] = ids[j]!;
  }
  return {
    task: pta.task,
    version: pta.version,
    steps: states.map((s, i) => ({ t: s.t, node: nodeAt[i] ?? null })),
    matchedNodes: nodeAt.filter((n): n is number => n !== null).sort((a, b) => a - b),
    bestPath: yield* bestPath(pta, ids, adjacency),
  };
}

/** The greedy forward scan of method.md 5.1 per reference path; the path with the highest recall (first on ties). */
function* bestPath(pta: Pta, ids: readonly number[], adjacency: ReadonlyArray<readonly number[]>): Generator<void, PtaAlignment['bestPath']> {
  const index = new Map(ids.map((id, j) => [id, j]));
  const edges = adjacency.map((a) => new Set(a));
  let best: { nodes: number[]; hits: number[]; recall: number } | undefined;
  for (const nodes of ptaPaths(pta)) {
    const path = nodes.filter((id) => index.has(id));
    if (path.length === 0) continue;
    const hits: number[] = [];
    let pointer = 0;
    for (const edge of edges) {
      for (let k = pointer; k < path.length; k++) {
        if (edge.has(index.get(path[k]!)!)) {
          hits.push(path[k]!);
          pointer = k + 1;
          break;
        }
      }
    }
    const recall = hits.length / path.length;
    if (best === undefined || recall > best.recall) best = { nodes, hits, recall };
    yield;
  }
  return best === undefined ? null : { nodes: best.nodes, hits: best.hits };
}
