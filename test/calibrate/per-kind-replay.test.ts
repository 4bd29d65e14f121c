/**
 * `calibrate` prints the single-kind levels combined as a policy JSON (each kind's stop chosen alone, within the
 * bound alone). Replayed together their stops add up: on the 1002 real runs of test/fixtures/early-stop-runs.jsonl.gz
 * five stops each within the 5 % bound alone stop 11 of 192 passing runs together (upper bound 9.3 %). Before, the
 * command printed that JSON without its own false stops; now it prints them and says it is over the bound.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliShared } from '../cli/run-cli.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/early-stop-runs.jsonl.gz', import.meta.url));

interface Point {
  passing: number;
  passingStopped: number;
  passingUpper: number | null;
}
interface Doc {
  kinds: Record<string, { stop: { threshold: number | null }; rows: Array<{ threshold: number; passingStopped: number; passingUpper: number | null }> }>;
  perKindPolicyReplay: { reference: Point; referenceFree: Point };
}

describe('the single-kind policy replayed whole', () => {
  const json = cliShared('calibrate', '--runs', FIXTURE, '--split', 'none', '--json');
  const text = cliShared('calibrate', '--runs', FIXTURE, '--split', 'none');

  it('counts the passing runs its stops stop together: more than any kind alone, over the bound each meets alone', async () => {
    const doc = JSON.parse((await json).stdout) as Doc;
    const alone = Object.values(doc.kinds).flatMap((k) => k.rows.filter((r) => r.threshold === k.stop.threshold));
    expect(alone.length).toBeGreaterThanOrEqual(2);
    for (const r of alone) expect(r.passingUpper!).toBeLessThanOrEqual(0.05); // each stop was chosen within the bound
    const together = doc.perKindPolicyReplay.referenceFree;
    const sum = alone.reduce((n, r) => n + r.passingStopped, 0);
    expect(together.passingStopped).toBeGreaterThan(Math.max(...alone.map((r) => r.passingStopped)));
    expect(together.passingStopped).toBeLessThanOrEqual(sum);
    expect(together.passingUpper!).toBeGreaterThan(0.05);
  });

  it('says so beside the JSON it prints', async () => {
    const doc = JSON.parse((await json).stdout) as Doc;
    const p = doc.perKindPolicyReplay.referenceFree;
    const out = (await text).stdout;
    const line = out.split('\n').find((l) => l.startsWith('  replayed together: '));
    expect(line).toBeDefined();
    expect(line).toContain(`reference-free ${p.passingStopped}/${p.passing} passing (upper ${(100 * p.passingUpper!).toFixed(1)}%)`);
    expect(line).toMatch(/OVER the 5\.0% bound: not a policy to use/);
  });
});
