/**
 * The shared trajectory corpus for benchmarks: locating `../shared/corpus`,
 * listing the files SOURCES.md names, and parsing them with the real format
 * parsers (every instance of a multi-instance file).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Step } from '../src/core/types.js';
import { parseInstancesText } from '../src/formats/index.js';
import type { FormatName, TrajectoryMeta } from '../src/formats/index.js';
import { ensureCorpus } from './unpack-corpus.js';

/** One parsed trajectory of the corpus. */
export interface CorpusTrajectory {
  /** Path relative to the corpus directory. */
  file: string;
  /** 0-based instance within the file (OpenHands output.jsonl holds several). */
  instance: number;
  format: FormatName;
  meta: TrajectoryMeta;
  steps: Step[];
  /** The file's text (shared by all instances of the file). */
  text: string;
}

/** The repository root (works from bench/ and from dist/bench/). */
export function repoRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return here.includes(`${path.sep}dist${path.sep}`) ? path.resolve(here, '../..') : path.resolve(here, '..');
}

/**
 * `override` if given, else the first `shared/corpus` found walking up from the repository (the team's
 * checkout), else the corpus the tests use (`test/.corpus/corpus`, unpacked from test/fixtures/corpus.tar.br here
 * if no test run has yet): a clone has no ../shared.
 */
export function findCorpus(override?: string): string {
  if (override !== undefined && override !== '') return path.resolve(override);
  let dir = repoRoot();
  for (;;) {
    const candidate = path.resolve(dir, '../shared/corpus');
    if (existsSync(candidate)) return candidate;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return ensureCorpus();
}

/** The data files SOURCES.md names in its tables (first backticked cell of a row) that exist, in order. */
export function listedFiles(corpus: string): string[] {
  const text = readFileSync(path.join(corpus, 'SOURCES.md'), 'utf8');
  const files = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^\|\s*(?:\d+\s*\|\s*)?`([^`]+\.(?:traj|json|jsonl))`/.exec(line);
    if (m?.[1] && existsSync(path.join(corpus, m[1]))) files.add(m[1]);
  }
  return [...files];
}

/**
 * Parses every listed file with `parseInstancesText(text, 'auto')`. Files that
 * are not trajectories (reports, task lists) are counted in `skipped`;
 * instances without steps are dropped.
 */
export function loadCorpus(corpus: string): { trajectories: CorpusTrajectory[]; skipped: number } {
  const trajectories: CorpusTrajectory[] = [];
  let skipped = 0;
  for (const file of listedFiles(corpus)) {
    const one = parseFile(corpus, file);
    if (one === undefined) skipped++;
    else trajectories.push(...one);
  }
  return { trajectories, skipped };
}

/** The trajectories of one corpus file (`file` relative to `corpus`), as {@link loadCorpus} reads them; throws on a file that is not one. */
export function loadFile(corpus: string, file: string): CorpusTrajectory[] {
  const one = parseFile(corpus, file);
  if (one === undefined) throw new Error(`${file}: not a trajectory file of ${corpus}`);
  return one;
}

function parseFile(corpus: string, file: string): CorpusTrajectory[] | undefined {
  const text = readFileSync(path.join(corpus, file), 'utf8');
  const parsed = parseInstancesText(text, 'auto', file);
  if (!parsed.ok) return undefined;
  const out: CorpusTrajectory[] = [];
  parsed.value.forEach((p, instance) => {
    if (p.steps.length > 0) out.push({ file, instance, format: p.format, meta: p.meta, steps: p.steps, text });
  });
  return out;
}

/** The trajectory with the most steps. */
export function longest(trajectories: readonly CorpusTrajectory[]): CorpusTrajectory {
  const best = trajectories.reduce<CorpusTrajectory | undefined>((b, t) => (b === undefined || t.steps.length > b.steps.length ? t : b), undefined);
  if (best === undefined) throw new Error('the corpus holds no trajectory with steps');
  return best;
}

/** The file of the corpus used by the server benchmarks (a mini-swe-agent 1.1 log whose task has a PTA in data/example). */
export const SERVER_BENCH_FILE = 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json';
export const SERVER_BENCH_TASK = 'pylint-dev__astroid-1196';
