/**
 * PTA serialisation: JSON text out, validated JSON in (method.md section 4:
 * "serialisable, versioned").
 */
import { err, ok, type Result } from '../../errors.js';
import { PTA_SCHEMA_VERSION, type Pta } from '../scorer-api.js';
import { isRecord, type JsonObject } from '../json-value.js';
import type { State } from '../types.js';
import { checkNumbers, checkState, isInt, isNonNegInt } from './validate-state.js';

/** Serialises a PTA as JSON text; {@link ptaFromJson} reads it back deep-equal. */
export function ptaToJson(pta: Pta): string {
  return JSON.stringify(pta);
}

function checkNode(x: unknown, i: number, count: number): string | null {
  const where = `nodes[${i}]`;
  if (!isRecord(x)) return `${where}: expected an object`;
  if (x.id !== i) return `${where}.id: expected ${i} (nodes are stored in id order)`;
  if (!isNonNegInt(x.refs)) return `${where}.refs: expected a non-negative integer`;
  if (!Array.isArray(x.children) || !x.children.every((c) => isInt(c) && c > i && c < count)) {
    return `${where}.children: expected ids of later nodes (${i + 1}..${count - 1})`;
  }
  if (i === 0) {
    if (x.parent !== null) return `${where}.parent: the root must have parent null`;
    if (x.state !== null) return `${where}.state: the root must have state null`;
    return null;
  }
  if (!isInt(x.parent) || x.parent < 0 || x.parent >= i) return `${where}.parent: expected the id of an earlier node`;
  return checkState(x.state, `${where}.state`);
}

/** Nodes checked between two yields of the stepped check (a server reading a 10,000-node PTA lets others run meanwhile). */
const NODES_PER_STEP = 500;

function* checkTree(nodes: JsonObject[]): Generator<void, string | null> {
  const seen = new Set<number>();
  for (const [k, n] of nodes.entries()) {
    if (k % NODES_PER_STEP === NODES_PER_STEP - 1) yield;
    for (const c of n.children as number[]) {
      if (seen.has(c)) return `nodes[${c}]: listed as a child more than once`;
      seen.add(c);
      if (nodes[c]?.parent !== n.id) return `nodes[${c}].parent: expected ${String(n.id)}, the node listing it as child`;
    }
  }
  for (let i = 1; i < nodes.length; i++) if (!seen.has(i)) return `nodes[${i}]: not a child of its parent`;
  return null;
}

function* checkPta(x: unknown): Generator<void, string | null> {
  if (!isRecord(x)) return 'PTA: expected a JSON object';
  if (x.schema !== PTA_SCHEMA_VERSION) return `schema: expected ${PTA_SCHEMA_VERSION}, got ${JSON.stringify(x.schema)}`;
  if (typeof x.task !== 'string') return 'task: expected a string';
  if (!isInt(x.version) || x.version < 1) return 'version: expected a positive integer';
  if (typeof x.tau !== 'number' || !(x.tau >= 0 && x.tau <= 1)) return 'tau: expected a number in [0, 1]';
  if (!Array.isArray(x.nodes) || x.nodes.length === 0) return 'nodes: expected a non-empty array';
  const nodes = x.nodes as unknown[];
  for (let i = 0; i < nodes.length; i++) {
    if (i % NODES_PER_STEP === NODES_PER_STEP - 1) yield;
    const e = checkNode(nodes[i], i, nodes.length);
    if (e !== null) return e;
  }
  const tree = yield* checkTree(nodes as JsonObject[]);
  if (tree !== null) return tree;
  if (!Array.isArray(x.windowSums) || x.windowSums.length !== 3) return 'windowSums: expected 3 windows';
  for (let k = 0; k < 3; k++) {
    const e = checkNumbers(x.windowSums[k], 4, `windowSums[${k}]`);
    if (e !== null) return e;
  }
  if (!Array.isArray(x.references)) return 'references: expected an array';
  for (let i = 0; i < x.references.length; i++) {
    const r: unknown = x.references[i];
    if (!isRecord(r) || !isNonNegInt(r.length) || !isNonNegInt(r.implTargets)) {
      return `references[${i}]: expected { length, implTargets } non-negative integers`;
    }
    if (r.by !== undefined && typeof r.by !== 'string') return `references[${i}].by: expected a string (who added it)`;
  }
  if (!Array.isArray(x.files) || !x.files.every((f) => typeof f === 'string')) return 'files: expected an array of strings';
  return null;
}

/**
 * Reads a PTA from JSON text or an already parsed value, checking the schema
 * version and the whole structure (tree links, states, windows). Errors name
 * the offending field, e.g. `nodes[3].state.stage: expected one of E, I, V, O`.
 */
export function ptaFromJson(input: unknown): Result<Pta, string> {
  let value: unknown = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return err(`PTA: invalid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  const steps = ptaFromValueInSteps(value);
  for (let r = steps.next(); ; r = steps.next()) if (r.done === true) return r.value;
}

/** {@link ptaFromJson} of an already parsed value, checked in steps: it yields every few hundred nodes. */
export function* ptaFromValueInSteps(value: unknown): Generator<void, Result<Pta, string>> {
  const problem = yield* checkPta(value);
  return problem === null ? ok(value as Pta) : err(problem);
}

/** Reads a reference's states (JSON text of a state array, as a store keeps a PTA's growth), each checked as a PTA node's state. */
export function statesFromJson(text: string): Result<State[], string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return err(`states: invalid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!Array.isArray(value)) return err('states: expected an array');
  for (let i = 0; i < value.length; i++) {
    const e = checkState(value[i], `states[${i}]`);
    if (e !== null) return err(e);
  }
  return ok(value as State[]);
}
