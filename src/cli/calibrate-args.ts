/** The flags of `steplens calibrate`, checked into one options object (bad values: one `usage` error naming the flag). */
import { parseArgs } from 'node:util';
import type { ModeName } from '../core/calibrate/index.js';
import type { BoundMethod } from '../core/stats/binomial.js';
import { SteplensError } from '../errors.js';
import { CORPUS_OPTIONS } from './corpus-input.js';

export type GroupBy = 'agent' | 'model' | 'source';

export interface CalibrateArgs {
  paths: string[];
  corpus: { outcomes?: string | undefined; manifest?: string | undefined; model?: string | undefined; run?: string | undefined };
  /** Broken files under PATH... are named on stderr either way; without --lenient they make the exit code 1. */
  lenient: boolean;
  sources?: string;
  runs: string[];
  saveRuns?: string;
  maxFalseStop: number;
  maxFalseWarn: number;
  confidence: number;
  bound: BoundMethod;
  sourceMax?: number;
  constrained: ModeName[];
  split: 'half' | 'source' | 'none';
  holdout: number;
  /** Task splits drawn from the seed that must each confirm a stop (`--split half`). */
  splits: number;
  seed: number;
  by?: GroupBy;
  portable: boolean;
  weights: boolean;
  config?: string;
  configOut?: string;
  out?: string;
  outDir?: string;
  json: boolean;
}

function rate(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const x = Number(value);
  if (value.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1) throw new SteplensError('usage', `${flag} must be a rate between 0 and 1, got '${value}'`);
  return x;
}

function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new SteplensError('usage', `${flag} must be ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}, got '${value}'`);
  return value as T;
}

const MODES: Record<string, ModeName[]> = { both: ['reference', 'referenceFree'], reference: ['reference'], 'reference-free': ['referenceFree'] };

export function parseCalibrateArgs(args: string[]): CalibrateArgs {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...CORPUS_OPTIONS,
      sources: { type: 'string' },
      runs: { type: 'string', multiple: true },
      'save-runs': { type: 'string' },
      out: { type: 'string' },
      'out-dir': { type: 'string' },
      json: { type: 'boolean', default: false },
      'max-false-stop': { type: 'string' },
      'max-false-warn': { type: 'string' },
      confidence: { type: 'string' },
      bound: { type: 'string' },
      'source-max': { type: 'string' },
      mode: { type: 'string' },
      split: { type: 'string' },
      holdout: { type: 'string' },
      splits: { type: 'string' },
      seed: { type: 'string' },
      by: { type: 'string' },
      portable: { type: 'boolean', default: false },
      weights: { type: 'boolean', default: false },
      config: { type: 'string' },
      'config-out': { type: 'string' },
    },
  });
  const runs = values.runs ?? [];
  if (positionals.length === 0 && runs.length === 0) throw new SteplensError('usage', 'no PATH given (usage: steplens calibrate [--outcomes FILE] ... PATH..., or --runs FILE)');
  const mode = values.mode ?? 'both';
  // Own keys only: `--mode constructor` found Object's constructor and passed the check.
  const constrained = Object.hasOwn(MODES, mode) ? MODES[mode] : undefined;
  if (constrained === undefined) throw new SteplensError('usage', `--mode must be both, reference or reference-free, got '${values.mode}'`);
  const split = oneOf(values.split, '--split', ['half', 'source', 'none'] as const, 'half');
  const holdout = rate(values.holdout, '--holdout', 0.5);
  if (holdout <= 0 || holdout >= 1) throw new SteplensError('usage', `--holdout must be strictly between 0 and 1, got '${values.holdout}'`);
  const splitsText = values.splits ?? '5';
  const splits = Number(splitsText);
  if (splitsText.trim() === '' || !Number.isInteger(splits) || splits < 1 || splits > 100) throw new SteplensError('usage', `--splits must be an integer from 1 to 100, got '${values.splits}'`);
  const seedText = values.seed ?? '1';
  const seed = Number(seedText);
  if (seedText.trim() === '' || !Number.isInteger(seed) || seed < 0) throw new SteplensError('usage', `--seed must be a non-negative integer, got '${values.seed}'`);
  const confidence = rate(values.confidence, '--confidence', 0.95);
  if (confidence <= 0 || confidence >= 1) throw new SteplensError('usage', `--confidence must be strictly between 0 and 1, got '${values.confidence}'`);
  if (values['config-out'] !== undefined && !values.weights) throw new SteplensError('usage', '--config-out writes fitted weights: give --weights too');
  const by = values.by === undefined ? undefined : oneOf(values.by, '--by', ['agent', 'model', 'source'] as const, 'source');
  if (by !== undefined && values.portable) throw new SteplensError('usage', '--by and --portable do not combine: --portable chooses one policy for every source');
  if (by !== undefined && values.split === 'source') throw new SteplensError('usage', '--by and --split source do not combine: each group is one source or a few (use --split half)');
  const sourceMax = values['source-max'] !== undefined ? rate(values['source-max'], '--source-max', 0.02) : values.portable ? 0.02 : undefined;
  return {
    paths: positionals,
    corpus: { outcomes: values.outcomes, manifest: values.manifest, model: values.model, run: values.run },
    lenient: values.lenient,
    ...(values.sources !== undefined ? { sources: values.sources } : {}),
    runs,
    ...(values['save-runs'] !== undefined ? { saveRuns: values['save-runs'] } : {}),
    maxFalseStop: rate(values['max-false-stop'], '--max-false-stop', 0.05),
    maxFalseWarn: rate(values['max-false-warn'], '--max-false-warn', 0.25),
    confidence,
    bound: oneOf(values.bound, '--bound', ['clopper-pearson', 'wilson'] as const, 'clopper-pearson'),
    ...(sourceMax !== undefined ? { sourceMax } : {}),
    constrained,
    split,
    holdout,
    splits,
    seed,
    ...(by !== undefined ? { by } : {}),
    portable: values.portable ?? false,
    weights: values.weights ?? false,
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(values['config-out'] !== undefined ? { configOut: values['config-out'] } : {}),
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(values['out-dir'] !== undefined ? { outDir: values['out-dir'] } : {}),
    json: values.json ?? false,
  };
}
