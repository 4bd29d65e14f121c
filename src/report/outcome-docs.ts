/**
 * Reading evaluation files into task → outcome maps. Shapes understood:
 * - SWE-bench harness per-instance `report.json`: `{ "<task>": { "resolved": bool } }`,
 *   or the flat form `{ "resolved": bool, "tests_status": ... }` (task = `flatTask`,
 *   the name of the folder the file is in);
 * - run summaries (SWE-bench `results.json`, sb-cli / harness `<model>.<run>.json`):
 *   `resolved` or `resolved_ids` → pass; `unresolved_ids`, `empty_patch_ids`,
 *   `empty_error_patch_ids` → fail (the agent produced no usable patch);
 *   `error_ids` → censored (the evaluation itself failed); `incomplete_ids` → unknown;
 * - `results_summary.json`: `{ "instances": [ { "instance_id", "resolved" } ] }`.
 */
import { isRecord } from '../core/json-value.js';
import type { Outcome } from './types.js';

export type OutcomeMap = Map<string, Outcome>;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

const SUMMARY_LISTS: ReadonlyArray<[string, Outcome]> = [
  ['incomplete_ids', 'unknown'],
  ['error_ids', 'censored'],
  ['empty_error_patch_ids', 'fail'],
  ['empty_patch_ids', 'fail'],
  ['unresolved_ids', 'fail'],
  ['resolved_ids', 'pass'],
  ['resolved', 'pass'],
];

/** The outcomes a parsed JSON document holds, or null when it is not an evaluation file. */
export function outcomesFromDoc(doc: unknown, flatTask?: string): OutcomeMap | null {
  if (!isRecord(doc)) return null;
  if (typeof doc.resolved === 'boolean' && ('tests_status' in doc || 'patch_exists' in doc)) {
    return new Map(flatTask !== undefined ? [[flatTask, doc.resolved ? 'pass' : 'fail']] : []);
  }
  if (Array.isArray(doc.resolved) || Array.isArray(doc.resolved_ids) || Array.isArray(doc.unresolved_ids)) {
    const map: OutcomeMap = new Map();
    for (const [key, outcome] of SUMMARY_LISTS) for (const id of strings(doc[key])) map.set(id, outcome);
    return map;
  }
  if (Array.isArray(doc.instances) && doc.instances.every((i) => isRecord(i) && typeof i.instance_id === 'string' && typeof i.resolved === 'boolean')) {
    const map: OutcomeMap = new Map();
    for (const i of doc.instances as Array<{ instance_id: string; resolved: boolean }>) map.set(i.instance_id, i.resolved ? 'pass' : 'fail');
    return map;
  }
  const entries = Object.entries(doc);
  if (entries.length > 0 && entries.every(([, v]) => isRecord(v) && typeof v.resolved === 'boolean')) {
    return new Map(entries.map(([k, v]) => [k, (v as { resolved: boolean }).resolved ? 'pass' : 'fail']));
  }
  return null;
}

/** True for JSON documents that are evaluation or task metadata, never trajectories. */
export function isAuxiliaryDoc(doc: unknown): boolean {
  if (outcomesFromDoc(doc) !== null) return true;
  return isRecord(doc) && typeof doc.instance_id === 'string' && 'FAIL_TO_PASS' in doc && 'patch' in doc;
}
