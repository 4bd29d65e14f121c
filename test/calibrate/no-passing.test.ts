/**
 * audit21: calibrate on runs that all failed refuses every stop (no passing run bounds a false stop), but the warn-only
 * policy it wrote took its warns from the "point estimate": with 0 passing runs every setting stops "0 of 0", so that
 * picked the most aggressive one (a lowScore warn below 50 after 5 steps, the default's after 30), while each kind's own
 * table said "warn none: too few runs". With no passing run there is no point estimate: the written policy warns as the
 * baseline does. The runs: the failing ones of test/fixtures/early-stop-runs.jsonl.gz (its SOURCES.md).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../src/core/policy.js';
import { cli } from '../cli/run-cli.js';

describe('calibrate with no passing run', () => {
  it('writes the baseline warns, not the most aggressive setting of 0 of 0 passing runs stopped', async () => {
    const [head, ...runs] = gunzipSync(readFileSync('test/fixtures/early-stop-runs.jsonl.gz')).toString('utf8').trim().split('\n');
    const failing = runs.filter((line) => (JSON.parse(line) as { passed: boolean }).passed === false);
    expect(failing.length).toBeGreaterThan(500);
    const file = join(mkdtempSync(join(tmpdir(), 'steplens-no-passing-')), 'failing.jsonl');
    writeFileSync(file, [head, ...failing].join('\n') + '\n');
    const [json, text] = await Promise.all([cli('calibrate', '--runs', file, '--json'), cli('calibrate', '--runs', file)]);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { policy: unknown; tradeoff: { runs: { passing: number } } };
    expect(doc.tradeoff.runs.passing).toBe(0);
    expect(doc.policy).toEqual(DEFAULT_POLICY);
    expect(text.stdout).toContain('with no passing run there is no point estimate either: it warns as the baseline policy does');
  }, 60_000);
});
