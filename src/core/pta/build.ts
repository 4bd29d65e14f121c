/**
 * Building and growing a task's prefix tree acceptor (method.md section 4).
 */
import { conf, DEFAULT_TAU } from '../equivalence.js';
import { PTA_SCHEMA_VERSION, type Pta, type PtaNode, type ReferenceStats } from '../scorer-api.js';
import { DEFAULT_ALPHA, windowDistributions } from '../stage-windows.js';
import type { State } from '../types.js';

/** Options of {@link buildPta}. */
export interface PtaOptions {
  /** Equivalence threshold used for insertion (default {@link DEFAULT_TAU}); stored in the PTA. */
  tau?: number;
  /** Laplace smoothing of the window distributions (default 0.01). */
  alpha?: number;
  /** Who adds the references, recorded on each (`ReferenceStats.by`). */
  by?: string;
}

/** Options of {@link addReference}: insertion always uses the PTA's own `tau`. */
export interface AddReferenceOptions {
  alpha?: number;
  /** Who adds it, recorded on the reference (`ReferenceStats.by`). */
  by?: string;
}

/** Copy of a state as JSON would hold it (undefined keys dropped), so stored PTAs round-trip exactly. */
function storedState(s: State): State {
  return JSON.parse(JSON.stringify(s)) as State;
}

function node(nodes: readonly PtaNode[], id: number): PtaNode {
  const n = nodes[id];
  if (n === undefined) throw new Error(`PTA node ${id} missing`);
  return n;
}

/**
 * Inserts one state sequence from the root: at node u with next state s,
 * follow the child equivalent to s (same stage, conf >= tau) with the highest
 * confidence, ties to the child created first; else create a child holding s.
 * Every node on the path, the root included, gets refs + 1.
 */
function insertPath(nodes: PtaNode[], states: readonly State[], tau: number): void {
  let u = node(nodes, 0);
  u.refs++;
  for (const s of states) {
    let best: PtaNode | undefined;
    let bestConf = -1;
    for (const c of u.children) {
      const child = node(nodes, c);
      const cs = child.state;
      if (cs?.stage !== s.stage) continue;
      const cf = conf(cs, s);
      if (cf >= tau && cf > bestConf) {
        best = child;
        bestConf = cf;
      }
    }
    if (best === undefined) {
      best = { id: nodes.length, parent: u.id, children: [], state: storedState(s), refs: 0 };
      nodes.push(best);
      u.children.push(best.id);
    }
    best.refs++;
    u = best;
  }
}

function referenceStats(states: readonly State[], by: string | undefined): ReferenceStats {
  const targets = new Set<string>();
  for (const s of states) {
    if (s.stage !== 'I') continue;
    const target = s.scope ?? s.file;
    if (target !== undefined) targets.add(target);
  }
  return { length: states.length, implTargets: targets.size, ...(by !== undefined ? { by } : {}) };
}

function addWindows(sums: Pta['windowSums'], states: readonly State[], alpha: number): void {
  const dists = windowDistributions(
    states.map((s) => s.stage),
    alpha,
  );
  for (let k = 0; k < 3; k++) {
    const sum = sums[k]!;
    const d = dists[k]!;
    for (let i = 0; i < 4; i++) sum[i] = sum[i]! + d[i]!;
  }
}

function nodeFiles(nodes: readonly PtaNode[]): string[] {
  const files = new Set<string>();
  for (const n of nodes) if (n.state?.file !== undefined) files.add(n.state.file);
  return [...files].sort();
}

function insertReference(pta: Pta, states: readonly State[], alpha: number, by?: string): void {
  insertPath(pta.nodes, states, pta.tau);
  addWindows(pta.windowSums, states, alpha);
  pta.references.push(referenceStats(states, by));
  pta.files = nodeFiles(pta.nodes);
}

/**
 * Builds a task's PTA from reference state sequences, inserted in order.
 * Works for any number of references (k >= 2 is the caller's policy; zero
 * references give a root-only PTA). The result has `version` 1 whatever k is;
 * each later {@link addReference} adds 1.
 */
export function buildPta(task: string, references: ReadonlyArray<readonly State[]>, options: PtaOptions = {}): Pta {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const pta: Pta = {
    schema: PTA_SCHEMA_VERSION,
    task,
    version: 1,
    tau: options.tau ?? DEFAULT_TAU,
    nodes: [{ id: 0, parent: null, children: [], state: null, refs: 0 }],
    windowSums: [
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ],
    references: [],
    files: [],
  };
  for (const ref of references) insertReference(pta, ref, alpha, options.by);
  return pta;
}

/**
 * Returns a new PTA with one more reference inserted (with the PTA's own
 * `tau`) and `version + 1`; the input PTA is never modified. Existing paths
 * stay paths: insertion only adds nodes and increments counts.
 */
export function addReference(pta: Pta, states: readonly State[], options: AddReferenceOptions = {}): Pta {
  const next = structuredClone(pta);
  insertReference(next, states, options.alpha ?? DEFAULT_ALPHA, options.by);
  next.version = pta.version + 1;
  return next;
}

/**
 * Whether the PTA holds this state sequence as one of its reference paths: a root-to-terminal path (a
 * reference ended at its last node) whose node at every depth is equivalent to the run's state there (same
 * stage, conf >= the PTA's tau). True for every run the PTA was built from, and for a run equivalent to one
 * step for step. The tree gives each node one depth, so the search visits each node at most once.
 */
export function holdsPath(pta: Pta, states: readonly State[]): boolean {
  const holds = (u: PtaNode, depth: number): boolean => {
    if (depth === states.length) return u.refs > u.children.reduce((n, c) => n + node(pta.nodes, c).refs, 0);
    const s = states[depth]!; // depth < states.length: checked above
    return u.children.some((c) => {
      const child = node(pta.nodes, c);
      return child.state !== null && child.state.stage === s.stage && conf(child.state, s) >= pta.tau && holds(child, depth + 1);
    });
  };
  return holds(node(pta.nodes, 0), 0);
}
