/** Real corpus runs with their published outcomes (test/fixtures/SOURCES.md), and a forecast model fitted on them. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ecdfRuns, endTables } from '../../src/core/forecast/end-ecdf.js';
import { fitRanker, rankerModel } from '../../src/core/forecast/fit.js';
import { FORECAST_FORMAT, FORECAST_SCHEMA, type ForecastFile } from '../../src/core/forecast/model.js';
import { forecastRun, type ForecastRun } from '../../src/core/forecast/run.js';
import { DEFAULT_FIT } from '../../src/core/forecast/select.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import type { Label, State, Step } from '../../src/core/types.js';
import { parseTrajectoryText } from '../../src/formats/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const G = 'christsakm__Trajectories/GOOD_EXAMPLES';
const D = 'christsakm__Trajectories/DONE';
const T = 'christsakm__Trajectories/TODO';
const M = 'SWE-agent__mini-swe-agent__pull-refs/output';

/** [file under the corpus, task, passed] (outcomes from the report.json beside each run). */
export const LABELLED: ReadonlyArray<[string, string, boolean]> = [
  [`${G}/getmoto__moto-6510/trace_01_gpt-5-2025-08-07/getmoto__moto-6510.traj`, 'getmoto__moto-6510', true],
  [`${G}/getmoto__moto-6510/trace_02_kimi-k2-instruct-0905/getmoto__moto-6510.traj`, 'getmoto__moto-6510', false],
  [`${G}/getmoto__moto-6510/trace_03_qwen3-coder-480b-a35b-instruct/getmoto__moto-6510.traj`, 'getmoto__moto-6510', false],
  [`${G}/facebookresearch__hydra-1915/trace_01_gpt-5-2025-08-07/facebookresearch__hydra-1915.traj`, 'facebookresearch__hydra-1915', true],
  [`${G}/facebookresearch__hydra-1915/trace_02_kimi-k2-instruct-0905/facebookresearch__hydra-1915.traj`, 'facebookresearch__hydra-1915', true],
  [`${G}/bokeh__bokeh-13370/trace_01_gpt-5-2025-08-07/bokeh__bokeh-13370.traj`, 'bokeh__bokeh-13370', true],
  [`${D}/getmoto__moto-4799/trace_01_gpt-5-2025-08-07/getmoto__moto-4799.traj`, 'getmoto__moto-4799', true],
  [`${D}/getmoto__moto-4799/trace_02_kimi-k2-instruct-0905/getmoto__moto-4799.traj`, 'getmoto__moto-4799', false],
  [`${T}/dask__dask-8685/trace_02_kimi-k2-instruct-0905/dask__dask-8685.traj`, 'dask__dask-8685', true],
  [`${M}/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`, 'pylint-dev__astroid-1196', true],
  [`${M}/deepseek_chat_dev_rerun/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`, 'pylint-dev__astroid-1196', true],
  [`${M}/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`, 'pylint-dev__astroid-1196', false],
  [`${M}/deepseek_chat_dev/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json`, 'pylint-dev__astroid-1866', true],
  [`${M}/deepseek_lite_dev_noparallel/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json`, 'pylint-dev__astroid-1866', false],
];

export interface LabelledRun extends ForecastRun {
  file: string;
  steps: Step[];
  states: State[];
  /** The labeler's verdicts, aligned with `states`. */
  labels: Label[];
}

/** The labelled runs, parsed and scored (reference-free) once. */
export function labelledRuns(): LabelledRun[] {
  const analyzers = defaultAnalyzers();
  return LABELLED.map(([rel, task, passed]) => {
    const file = path.join(CORPUS_DIR, rel);
    const parsed = parseTrajectoryText(readFileSync(file, 'utf8'), 'auto', file);
    if (!parsed.ok) throw parsed.error;
    const steps = parsed.value.steps;
    const results = scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers }).results;
    const states = results.map((r) => r.state);
    const identity = { id: rel, task, agent: parsed.value.meta.agent ?? 'agent', model: parsed.value.meta.model ?? 'model', passed };
    const labels = results.map((r) => r.label);
    return { ...forecastRun(identity, steps, states, labels), file, states, steps, labels };
  });
}

/** A version-1 forecast file holding one default model fitted on `runs` (the default configuration, identity calibration). */
export function forecastFileOf(runs: readonly ForecastRun[]): ForecastFile {
  return { format: FORECAST_FORMAT, schema: FORECAST_SCHEMA, version: 1, createdAt: '2026-12-01T00:00:00.000Z', models: [rankerModel(fitRanker(runs, DEFAULT_FIT), undefined)] };
}

/** forecastFileOf(runs) with an end-of-run model (core/forecast/end-model.ts) fitted on the same runs, ECDF-mapped among them. */
export function endForecastFileOf(runs: readonly ForecastRun[]): ForecastFile {
  const end = { tables: endTables(runs, DEFAULT_FIT.features), models: [rankerModel(fitRanker(ecdfRuns(runs, runs), DEFAULT_FIT), undefined)] };
  return { ...forecastFileOf(runs), end };
}
