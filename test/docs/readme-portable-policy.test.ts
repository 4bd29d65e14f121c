/**
 * audit30: README's account of `calibrate --portable` on the 1002 scored runs said a regression loop of 3 was
 * demoted (it stopped one of gemini-3-pro's 4 passing runs) and that with `--split source` all 15
 * leave-one-source-out folds chose no stop. The command (the line test/calibrate/default-policy runs) prints three
 * demotions, none of them a regression loop, and 14 of its 15 folds choose an exploration-streak stop. Each claim
 * is checked here against that command's JSON.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PortableResult } from '../../src/core/calibrate/index.js';
import { cliShared } from '../cli/run-cli.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/early-stop-runs.jsonl.gz', import.meta.url));
/** README's prose with its line breaks as spaces. */
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

describe("README's portable policy paragraph", () => {
  it('names the demotions and the leave-one-source-out folds calibrate --portable prints', async () => {
    const run = await cliShared('calibrate', '--runs', FIXTURE, '--portable', '--max-false-stop', '0.03', '--split', 'source', '--json');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { portable: PortableResult };
    const demoted = out.portable.demoted.map((d) => `${d.setting}: ${d.source} ${d.passingStopped}/${d.passing}`);
    expect(demoted).toEqual(['blindRetry 5: CodeR + gpt-4 5/64', 'cycle 2: CodeR + gpt-4 3/64', 'noAction 2: mini-swe-agent 2.2.4 + openai/gpt-5-mini 16/18']);
    for (const phrase of ["blind retry 5 stopped 5 of CodeR's 64 passing runs", 'a 2-fold cycle 3 of them', "no action at 2 16 of gpt-5-mini's 18**"]) {
      expect(README.includes(phrase), phrase).toBe(true);
    }
    expect(README.includes("a regression loop of 3 one of gemini-3-pro's 4"), 'the old demotion').toBe(false);

    // The folds: each source's policy chosen without it, and what it did to that source.
    const folds = out.portable.heldOut.folds.map((f) => [f.holdout, f.settings.explorationStreak, Object.entries(f.settings).filter(([, v]) => v !== null).length] as const);
    expect(folds).toHaveLength(15);
    expect(folds.filter(([, , stops]) => stops === 0).map(([s]) => s)).toEqual(['CodeR + gpt-4']);
    expect(folds.filter(([, , stops]) => stops > 0).every(([, streak, stops]) => stops === 1 && (streak === 30 || streak === 35))).toBe(true);
    expect(folds.filter(([, streak]) => streak === 35).map(([s]) => s)).toEqual(['SWE-agent 0.x + gpt-4']);
    const pooled = out.portable.heldOut.pooledOutOfSample.reference;
    expect([pooled.passingStopped, pooled.passing, pooled.failingStopped, pooled.failing]).toEqual([0, 192, 0, 810]);
    expect((100 * pooled.passingUpper!).toFixed(1)).toBe('1.5');
    for (const phrase of [
      '14 of the 15 leave-one-source-out folds choose an exploration-streak stop (30, or 35 without SWE-agent 0.x + gpt-4) and the one without CodeR + gpt-4 chooses none',
      'the pooled held-out false stops are 0 / 192 (upper bound 1.5 %) and failing runs stopped 0 / 810',
    ]) {
      expect(README.includes(phrase), phrase).toBe(true);
    }
  });
});
