/**
 * `score` without --pta says what its reference-free total is made of: the header names the composite's weights in
 * effect (the shipped priorWeights give Φcoh 0, and 90 % of the total is Φbrevity and Φedit), the line under the score
 * prints the weighted signals, and `--json` adds them as `prior` (weights and signals); the total is their weighted
 * mean. It used to say "no PTA: struct and cov left out" and print coh and temp only.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { scoreDocument } from '../../src/cli/commands/score.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { CORPUS, cli } from './run-cli.js';

type ScoreDoc = ReturnType<typeof scoreDocument>;

/** A real 14-step swe-agent 1.1 run (kimi-k2) that changes source: Φedit 1, Φbrevity 15 / (15 + 14). */
const DASK = join(CORPUS, 'christsakm__Trajectories/TODO/dask__dask-8685/trace_02_kimi-k2-instruct-0905/dask__dask-8685.traj');
const dir = mkdtempSync(join(tmpdir(), 'steplens-prior-'));

/** 100 · Σ w·Φ / Σ w over the document's prior terms. */
const weighted = (p: NonNullable<ScoreDoc['prior']>) => {
  const names = Object.keys(p.weights);
  const sum = names.reduce((n, k) => n + p.weights[k]!, 0);
  return (100 * names.reduce((n, k) => n + p.weights[k]! * p.signals[k]!, 0)) / sum;
};

describe('score without a PTA: the reference-free composite, named and broken down', () => {
  it('--json: prior holds the weights in effect that are > 0 and their signals; the total is their weighted mean', async () => {
    const run = await cli('score', DASK, '--json');
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as ScoreDoc;
    expect(doc.reference.kind).toBe('prior');
    const shipped = Object.fromEntries(Object.entries(DEFAULT_CONFIG.priorWeights).filter(([, w]) => w > 0));
    expect(doc.prior!.weights).toEqual(shipped);
    expect(Object.keys(doc.prior!.weights)).toEqual(['brevity', 'edit', 'temp']);
    expect(doc.prior!.signals.brevity).toBeCloseTo(15 / (15 + 14), 12);
    expect(doc.prior!.signals.edit).toBe(1);
    expect(doc.prior!.signals.temp).toBe(doc.score.temp);
    expect(doc.score.total).toBeCloseTo(weighted(doc.prior!), 9);
    // Existing fields are unchanged; a PTA-scored document has no prior.
    expect(Object.keys(doc)).toEqual(expect.arrayContaining(['score', 'tier', 'waste', 'signals', 'steps', 'stages', 'reference', 'unknown']));
    const withPta = JSON.parse((await cli('score', DASK, '--pta', join(import.meta.dirname, '../../data/example/dask__dask-8685.json'), '--json')).stdout) as ScoreDoc;
    expect(withPta.reference.kind).toBe('pta');
    expect(withPta.prior).toBeUndefined();
  });

  it('human: the header names the composite and its weights, the next line its weighted signals', async () => {
    const run = await cli('score', DASK);
    expect(run.code).toBe(0);
    const [header, score, signals] = run.stdout.split('\n');
    expect(header).toBe('dask__dask-8685: 14 steps, reference prior (reference-free composite: brevity 0.5, edit 0.4, temp 0.1; struct and cov need a PTA; docs/forecast.md)');
    expect(score).toMatch(/^score 74\.8 /);
    expect(signals).toBe('  brevity 0.517  edit 1  temp 0.894');
  });

  it('follows the weights of --config, not the shipped ones', async () => {
    const paper = join(dir, 'paper.json');
    writeFileSync(paper, JSON.stringify({ priorWeights: { coh: 0.3, temp: 0.35, brevity: 0, edit: 0 } }));
    const doc = JSON.parse((await cli('score', DASK, '--json', '--config', paper)).stdout) as ScoreDoc;
    expect(doc.prior!.weights).toEqual({ temp: 0.35, coh: 0.3 });
    expect(doc.prior!.signals).toEqual({ temp: doc.score.temp, coh: doc.score.coh });
    expect(doc.score.total).toBeCloseTo(weighted(doc.prior!), 9);
    const header = (await cli('score', DASK, '--config', paper)).stdout.split('\n')[0];
    expect(header).toContain('reference prior (reference-free composite: temp 0.35, coh 0.3;');
  });
});
