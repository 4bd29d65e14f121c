/** Writing and reading the scored-runs file (format in `protocol/scored-runs.ts`). */
import { gzipSync } from 'node:zlib';
import type { TradeoffRun, WeightSample } from '../core/calibrate/index.js';
import type { ActionKind, State } from '../core/types.js';
import { SteplensError } from '../errors.js';
import { readTextSync } from '../text-files.js';
import { writeOutputFileSync } from './output-files.js';
import { formatIssues } from '../core/config.js';
import { SCORED_RUNS_FORMAT, SCORED_RUNS_VERSION, scoredRunSchema, scoredRunsHeaderSchema, type ScoredRunLine } from '../protocol/scored-runs.js';

/** A scored run with everything calibrate needs: its replay form and its final signal values. */
export interface ScoredRun {
  run: TradeoffRun & { source: string; agent: string; model: string };
  weights: WeightSample;
}

const index = (list: string[], value: string): number => {
  const i = list.indexOf(value);
  if (i >= 0) return i;
  list.push(value);
  return list.length - 1;
};

function encode(s: ScoredRun): ScoredRunLine {
  const { run, weights } = s;
  const tools: string[] = [];
  const files: string[] = [];
  const hashes = new Map<string, number>();
  const states = run.states.map((x) => {
    if (!hashes.has(x.hash)) hashes.set(x.hash, hashes.size);
    return [
      x.stage,
      x.kind,
      index(tools, x.tool),
      x.file === undefined ? -1 : index(files, x.file),
      hashes.get(x.hash)!,
      (x.changesFile ? 1 : 0) | (x.failed ? 2 : 0) | (x.changesEnv === true ? 4 : 0) | (x.variant === true ? 8 : 0),
      x.cost,
    ] as ScoredRunLine['states'][number];
  });
  return {
    id: run.id,
    task: run.task,
    agent: run.agent,
    model: run.model,
    source: run.source,
    passed: run.passed,
    hasReference: run.hasReference,
    tools,
    files,
    states,
    totals: { referenceFree: [...run.totals.referenceFree], reference: run.hasReference ? [...run.totals.reference] : null },
    final: { referenceFree: { ...weights.referenceFree }, reference: weights.reference ? { ...weights.reference } : null },
  };
}

function decode(l: ScoredRunLine, where: string): ScoredRun {
  const states: State[] = l.states.map(([stage, kind, tool, file, hash, flags, cost], t) => ({
    t,
    stage,
    kind: kind as ActionKind,
    tool: l.tools[tool] ?? '',
    ...(file >= 0 ? { file: l.files[file] ?? '' } : {}),
    hash: `h${hash}`,
    tokens: [],
    command: false,
    changesFile: (flags & 1) !== 0,
    failed: (flags & 2) !== 0,
    cost,
    unknown: false,
    ...((flags & 4) !== 0 ? { changesEnv: true as const } : {}),
    ...((flags & 8) !== 0 ? { variant: true as const } : {}),
  }));
  const free = l.totals.referenceFree;
  const ref = l.totals.reference ?? free;
  if (free.length !== states.length || ref.length !== states.length) throw new SteplensError('bad_input', `${where}: ${states.length} states but ${free.length}/${ref.length} totals`);
  return {
    run: { id: l.id, task: l.task, agent: l.agent, model: l.model, source: l.source, passed: l.passed, hasReference: l.hasReference, states, totals: { referenceFree: free, reference: ref } },
    weights: { task: l.task, source: l.source, passed: l.passed, referenceFree: l.final.referenceFree, reference: l.final.reference },
  };
}

/** Writes the runs (gzip when the name ends in `.gz`), creating the folder; `name` is the file as the user named it. */
export function writeScoredRuns(path: string, runs: readonly ScoredRun[], generatedBy: string, name = path): void {
  const lines = [JSON.stringify({ format: SCORED_RUNS_FORMAT, version: SCORED_RUNS_VERSION, generatedBy }), ...runs.map((r) => JSON.stringify(encode(r)))];
  const text = `${lines.join('\n')}\n`;
  writeOutputFileSync(path, path.endsWith('.gz') ? gzipSync(text, { level: 9 }) : text, `--save-runs ${name}`);
}

/** Reads a scored-runs file; every problem names the file and line. */
export function readScoredRuns(path: string): ScoredRun[] {
  // Bounded like every input: a gzip bomb named by --runs is one error, not an abort.
  const read = readTextSync(path);
  if (!read.ok) throw new SteplensError('bad_input', read.error.message.replace(/^cannot read /, 'cannot read --runs '));
  // Numbered as an editor numbers them: blank lines count.
  const lines = read.value
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter((l) => l.line.trim() !== '');
  const json = (line: string, n: number): unknown => {
    try {
      return JSON.parse(line);
    } catch {
      throw new SteplensError('bad_input', `${path} line ${n}: not valid JSON`);
    }
  };
  const first = lines[0];
  if (first === undefined) throw new SteplensError('bad_input', `${path}: empty (a scored-runs file starts with its ${SCORED_RUNS_FORMAT} header; calibrate --save-runs writes one)`);
  const head = scoredRunsHeaderSchema.safeParse(json(first.line, first.n));
  if (!head.success) throw new SteplensError('bad_input', `${path}: not a ${SCORED_RUNS_FORMAT} v${SCORED_RUNS_VERSION} file (${formatIssues(head.error)})`);
  return lines.slice(1).map(({ line, n }) => {
    const r = scoredRunSchema.safeParse(json(line, n));
    if (!r.success) throw new SteplensError('bad_input', `${path} line ${n}: ${formatIssues(r.error)}`);
    return decode(r.data, `${path} line ${n}`);
  });
}
