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
  /** The version of the built PTA (default 1): a task whose PTA was removed at version v starts again at v + 1, never reusing a number. */
  version?: number;
}

/** Options of {@link addReference}: insertion always uses the PTA's own `tau`. */
export interface AddReferenceOptions {
  alpha?: number;
  /** Who adds it, recorded on the reference (`ReferenceStats.by`). */
  by?: string;
}

/**
 * Copy of a state as JSON would hold it (undefined keys dropped, arrays copied, key order kept), so stored
 * PTAs round-trip exactly. By hand: a JSON round trip per node cost 37 µs, 190 ms for a 5,000-step reference.
 */
function storedState(s: State): State {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(s)) {
    const v = (s as unknown as Record<string, unknown>)[key];
    if (v === undefined) continue;
    out[key] = Array.isArray(v) ? v.slice() : v;
  }
  return out as unknown as State;
}

/** States inserted, or new nodes measured, between two yields of a growth in steps. */
const WORK_PER_STEP = 500;

/** Runs a growth in steps to its end (the synchronous API). */
function finish<T>(steps: Generator<void, T>): T {
  let r = steps.next();
  while (r.done !== true) r = steps.next();
  return r.value;
}

function node(nodes: readonly PtaNode[], id: number): PtaNode {
  const n = nodes[id];
  if (n === undefined) throw new Error(`PTA node ${id} missing`);
  return n;
}

const digits = (n: number): number => String(n).length;
const jsonBytes = (x: unknown): number => Buffer.byteLength(JSON.stringify(x));

/**
 * One insertion into `nodes`. With `firstNew` below `nodes.length`, the nodes before it are shared with
 * an earlier PTA version and never mutated: a node is copied the first time the insertion changes it
 * (its refs, its children), so growth costs the inserted path, not a copy of the whole tree. `bytes`
 * counts the JSON bytes the changes add to the shared nodes (new nodes are counted whole afterwards).
 */
class Insertion {
  bytes = 0;
  private readonly copied = new Set<number>();

  constructor(
    private readonly nodes: PtaNode[],
    private readonly firstNew: number,
  ) {}

  private own(n: PtaNode): PtaNode {
    if (n.id >= this.firstNew || this.copied.has(n.id)) return n;
    const copy = { ...n, children: n.children.slice() };
    this.nodes[n.id] = copy;
    this.copied.add(n.id);
    return copy;
  }

  private count(n: PtaNode): PtaNode {
    const u = this.own(n);
    if (u.id < this.firstNew) this.bytes += digits(u.refs + 1) - digits(u.refs);
    u.refs++;
    return u;
  }

  private adopt(parent: PtaNode, child: PtaNode): void {
    if (parent.id < this.firstNew) this.bytes += digits(child.id) + (parent.children.length > 0 ? 1 : 0);
    parent.children.push(child.id);
  }

  /**
   * Inserts one state sequence from the root: at node u with next state s,
   * follow the child equivalent to s (same stage, conf >= tau) with the highest
   * confidence, ties to the child created first; else create a child holding s.
   * Every node on the path, the root included, gets refs + 1.
   */
  /** Yields every few hundred states; returns the id of the node the reference ends at (the root for an empty one). */
  *path(states: readonly State[], tau: number): Generator<void, number> {
    const nodes = this.nodes;
    let u = this.count(node(nodes, 0));
    let done = 0;
    for (const s of states) {
      if (++done % WORK_PER_STEP === 0) yield;
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
        this.adopt(u, best);
      }
      u = this.count(best);
    }
    return u.id;
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

function addWindows(sums: Pta['windowSums'], states: readonly State[], alpha: number): Pta['windowSums'] {
  const dists = windowDistributions(
    states.map((s) => s.stage),
    alpha,
  );
  return sums.map((sum, k) => sum.map((x, i) => x + dists[k]![i]!)) as Pta['windowSums'];
}

/** The sorted files of `files` and of the nodes from `from` on (only new nodes can bring a new file). */
function withNodeFiles(files: readonly string[], nodes: readonly PtaNode[], from: number): string[] {
  const known = new Set(files);
  let added = false;
  for (let i = from; i < nodes.length; i++) {
    const file = nodes[i]?.state?.file;
    if (file !== undefined && !known.has(file)) {
      known.add(file);
      added = true;
    }
  }
  return added ? [...known].sort() : files.slice();
}

/** JSON bytes of PTAs, remembered per object (a PTA is never changed once built). */
const ptaBytes = new WeakMap<Pta, number>();

/** Bytes of `ptaToJson(pta)` (UTF-8), computed once per PTA object and kept up to date by {@link addReference}. */
export function ptaJsonBytes(pta: Pta): number {
  let bytes = ptaBytes.get(pta);
  if (bytes === undefined) {
    bytes = jsonBytes(pta);
    ptaBytes.set(pta, bytes);
  }
  return bytes;
}

/** {@link ptaJsonBytes} in steps (a fresh PTA: its nodes measured a few hundred at a time). */
export function* ptaJsonBytesInSteps(pta: Pta): Generator<void, number> {
  const known = ptaBytes.get(pta);
  if (known !== undefined) return known;
  const { nodes, ...rest } = pta;
  // The object without its nodes, then each node and its comma: `"nodes":[]` holds the brackets already.
  let bytes = jsonBytes({ ...rest, nodes: [] }) + Math.max(0, nodes.length - 1);
  for (let i = 0; i < nodes.length; i++) {
    if (i % WORK_PER_STEP === WORK_PER_STEP - 1) yield;
    bytes += jsonBytes(nodes[i]);
  }
  ptaBytes.set(pta, bytes);
  return bytes;
}

/** The bytes {@link ptaJsonBytes} knows for `pta` without computing them, if any. */
export function knownPtaJsonBytes(pta: Pta): number | undefined {
  return ptaBytes.get(pta);
}

/** Records the bytes of `ptaToJson(pta)` measured elsewhere (a store that serialised it, or measured it in slices). */
export function rememberPtaJsonBytes(pta: Pta, bytes: number): void {
  ptaBytes.set(pta, bytes);
}

/**
 * Inserts one reference into `pta` in place, yielding every {@link WORK_PER_STEP} states (and new nodes
 * measured); the nodes before `firstNew` are shared with another version (see {@link Insertion}). Returns
 * the node the reference ends at and, with `count`, the JSON bytes the PTA grew by (version change excluded; else 0).
 */
function* insertReference(pta: Pta, states: readonly State[], alpha: number, firstNew: number, count: boolean, by: string | undefined): Generator<void, { bytes: number; end: number }> {
  const before = pta.nodes.length;
  const insertion = new Insertion(pta.nodes, firstNew);
  const end = yield* insertion.path(states, pta.tau);
  const windows = addWindows(pta.windowSums, states, alpha);
  const stats = referenceStats(states, by);
  const files = withNodeFiles(pta.files, pta.nodes, before);
  let bytes = 0;
  if (count) {
    bytes = insertion.bytes + jsonBytes(windows) - jsonBytes(pta.windowSums) + jsonBytes(stats) + (pta.references.length > 0 ? 1 : 0) + jsonBytes(files) - jsonBytes(pta.files);
    for (let i = before; i < pta.nodes.length; i++) {
      if ((i - before) % WORK_PER_STEP === WORK_PER_STEP - 1) yield;
      bytes += jsonBytes(pta.nodes[i]) + 1;
    }
  }
  pta.windowSums = windows;
  pta.references = [...pta.references, stats];
  pta.files = files;
  return { bytes, end };
}

/**
 * {@link buildPta} in steps: yields every few hundred states, so a caller sharing a thread (the server)
 * can let other work run between them.
 */
export function* buildPtaInSteps(task: string, references: ReadonlyArray<readonly State[]>, options: PtaOptions = {}): Generator<void, Pta> {
  const alpha = options.alpha ?? DEFAULT_ALPHA;
  const pta: Pta = {
    schema: PTA_SCHEMA_VERSION,
    task,
    version: options.version ?? 1,
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
  for (const ref of references) yield* insertReference(pta, ref, alpha, 0, false, options.by);
  return pta;
}

/**
 * Builds a task's PTA from reference state sequences, inserted in order.
 * Works for any number of references (k >= 2 is the caller's policy; zero
 * references give a root-only PTA). The result has `version` 1 whatever k is;
 * each later {@link addReference} adds 1.
 */
export function buildPta(task: string, references: ReadonlyArray<readonly State[]>, options: PtaOptions = {}): Pta {
  return finish(buildPtaInSteps(task, references, options));
}

/** {@link addReference} in steps (see {@link buildPtaInSteps}). */
export function* addReferenceInSteps(pta: Pta, states: readonly State[], options: AddReferenceOptions = {}): Generator<void, Pta> {
  const next: Pta = { ...pta, nodes: pta.nodes.slice(), version: pta.version + 1 };
  const known = ptaBytes.get(pta);
  const { bytes, end } = yield* insertReference(next, states, options.alpha ?? DEFAULT_ALPHA, pta.nodes.length, known !== undefined, options.by);
  if (known !== undefined) ptaBytes.set(next, known + bytes + digits(next.version) - digits(pta.version));
  growths.set(next, { from: pta, end });
  return next;
}

/** How a PTA object was grown from another (see {@link grownFrom}). */
export interface Growth {
  /** The version it was grown from (its first `from.nodes.length` nodes are that version's, but for refs and children). */
  from: Pta;
  /** The node the added reference ends at. */
  end: number;
}

const growths = new WeakMap<Pta, Growth>();

/** The version `pta` was grown from by `addReference`, and where the reference ended; lets per-PTA structures be extended rather than rebuilt. */
export function grownFrom(pta: Pta): Growth | undefined {
  return growths.get(pta);
}

/**
 * Returns a new PTA with one more reference inserted (with the PTA's own
 * `tau`) and `version + 1`; the input PTA is never modified. Existing paths
 * stay paths: insertion only adds nodes and increments counts. The two
 * versions share every node the insertion did not touch (nodes are never
 * changed once built), so growth costs the inserted path and a copy of the
 * node list, not a deep copy of the tree.
 */
export function addReference(pta: Pta, states: readonly State[], options: AddReferenceOptions = {}): Pta {
  return finish(addReferenceInSteps(pta, states, options));
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
