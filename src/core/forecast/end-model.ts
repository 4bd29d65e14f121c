/**
 * The end-of-run model (task endrank29): pPass of a FINISHED run from its last feature row, each feature first mapped
 * to its ECDF among the runs `train` read (end-ecdf.ts; the tables travel in the model file), then scored by a
 * logistic model chosen per agent + model as the prefix model's are (model.ts `selectModel`). Used only where a run
 * is finished (`rank`, `report`); live sessions keep the prefix model, so online == batch at every prefix is its.
 */
import type { Label, State, Step } from '../types.js';
import { compileTable, ecdfOf, type CompiledTable } from './end-ecdf.js';
import { createFeatureTracker, FEATURE_COUNT, FEATURE_NAMES } from './features.js';
import { compileModel, pPassOf } from './forecaster.js';
import { selectModel, type EndModel } from './model.js';

/** Which model gives a finished run its pPass (`rank --rank-model`, `POST /v1/rank`'s `rankModel`): the prefix model at its last step, or the end model. */
export const RANK_MODELS = ['prefix', 'end'] as const;
export type RankModel = (typeof RANK_MODELS)[number];

const compiledTables = new WeakMap<EndModel, Map<number, CompiledTable>>();
function tablesOf(end: EndModel): Map<number, CompiledTable> {
  let t = compiledTables.get(end);
  if (t === undefined) {
    t = new Map(Object.entries(end.tables).map(([f, tab]) => [FEATURE_NAMES.indexOf(f as (typeof FEATURE_NAMES)[number]), compileTable(tab)]));
    compiledTables.set(end, t);
  }
  return t;
}

/** A catalogue row (raw features) mapped by the end model's tables; features without a table are left as they are. */
export function mapEndRow(end: EndModel, row: Float64Array): Float64Array {
  const out = Float64Array.from(row);
  for (const [j, t] of tablesOf(end)) out[j] = ecdfOf(t, row[j]!);
  return out;
}

/** pPass of a finished run's raw end row by the end model of its agent and model (undefined: the file has none that applies). */
export function endPPass(end: EndModel, agent: string | undefined, model: string | undefined, row: Float64Array): number | undefined {
  const m = selectModel(end, agent, model);
  return m === undefined ? undefined : pPassOf(compileModel(m), mapEndRow(end, row));
}

/** Feeds a run's steps (with the scorer's states and labels) and gives its end-of-run pPass once finished. */
export interface EndScorer {
  add(step: Step, state: State, label: Label): void;
  /** pPass of the run as it stands, read as finished (undefined: no model of the file applies). */
  value(): number | undefined;
}

export function createEndScorer(end: EndModel, agent: string | undefined, model: string | undefined): EndScorer {
  const m = selectModel(end, agent, model);
  const features = createFeatureTracker(m?.features ?? false);
  const row = new Float64Array(FEATURE_COUNT);
  return {
    add: (step, state, label) => features.add(step, state, label),
    value: () => (m === undefined ? undefined : pPassOf(compileModel(m), mapEndRow(end, features.write(row)))),
  };
}
