/**
 * The lowForecast stop is recommended only under the rule `calibrate` uses:
 * the 95 % upper bound of passing runs stopped within the bound (a point
 * estimate within it is not enough), a failing run stopped, and enough
 * passing runs for the bound to be reachable; otherwise nothing, with why.
 */
import { describe, expect, it } from 'vitest';
import { minPassingFor } from '../../src/core/calibrate/recommend.js';
import { evaluateForecastStop, type StopRun } from '../../src/core/forecast/stop-eval.js';
import { clopperPearsonUpper } from '../../src/core/stats/binomial.js';

/** A run of `n` steps whose pPass is `p` at every step. */
const run = (source: string, passed: boolean, p: number, n = 40): StopRun => ({ source, passed, pPass: new Float64Array(n).fill(p), costs: new Float64Array(n).fill(100) });

describe('the lowForecast stop check', () => {
  it('recommends the point saving the most failing tokens whose upper bound of false stops is within 5 %', () => {
    const runs = [...Array.from({ length: 120 }, () => run('a', true, 0.6)), ...Array.from({ length: 80 }, () => run('a', false, 0.04))];
    const e = evaluateForecastStop(runs);
    expect(e.recommended).not.toBeNull();
    const r = e.recommended!;
    expect(r.passingStopped).toBe(0);
    expect(r.passingUpper).toBeCloseTo(clopperPearsonUpper(0, 120), 12);
    // Earliest stop (smallest minSteps) among the floors that catch the failing runs: the most tokens saved.
    expect(r.minSteps).toBe(5);
    expect(r.floor).toBeGreaterThan(0.04);
    expect(e.bySource.a).toEqual({ passing: 120, failing: 80, passingStopped: 0, failingStopped: 80, passingUpper: r.passingUpper });
  });

  it("counts sources named after Object's prototype members like any other (T52: the table has no prototype)", () => {
    const names = ['__proto__', 'constructor', 'hasOwnProperty'];
    const runs = names.flatMap((s) => [...Array.from({ length: 60 }, () => run(s, true, 0.6)), ...Array.from({ length: 30 }, () => run(s, false, 0.04))]);
    const e = evaluateForecastStop(runs);
    expect(e.recommended).not.toBeNull();
    expect(Object.keys(e.bySource)).toEqual(names.slice().sort());
    for (const s of names) expect(Object.hasOwn(e.bySource, s) && e.bySource[s]).toEqual(expect.objectContaining({ passing: 60, failing: 30, failingStopped: 30 }));
    expect(JSON.stringify(e.bySource)).toMatch(/^\{"__proto__":\{"passing":60,/);
  });

  it('refuses a point whose point estimate is within the bound but whose upper bound is not (3 of 100 passing runs stopped)', () => {
    const runs = [...Array.from({ length: 97 }, () => run('a', true, 0.6)), ...Array.from({ length: 3 }, () => run('a', true, 0.01)), ...Array.from({ length: 50 }, () => run('a', false, 0.01))];
    const e = evaluateForecastStop(runs);
    const low = e.points.find((p) => p.floor === 0.02 && p.minSteps === 5)!;
    expect(low.passingStopped).toBe(3);
    expect(low.passingStopped / low.passing).toBeLessThanOrEqual(0.05);
    expect(low.passingUpper!).toBeGreaterThan(0.05);
    expect(low.supported).toBe(false);
    expect(e.recommended).toBeNull();
    expect(e.reason).toMatch(/upper bound of passing runs stopped is within 5 %/);
  });

  it('recommends nothing with fewer passing runs than the bound needs, and says so', () => {
    const need = minPassingFor(0.05);
    expect(need).toBe(59);
    const runs = [...Array.from({ length: need - 1 }, () => run('a', true, 0.6)), ...Array.from({ length: 40 }, () => run('a', false, 0.01))];
    const e = evaluateForecastStop(runs);
    expect(e.recommended).toBeNull();
    expect(e.points.every((p) => !p.supported)).toBe(true);
    expect(e.reason).toBe('58 passing and 40 failing runs held out; a false-stop bound of 5 % at 95 % confidence needs at least 59 passing and 1 failing');
  });

  it("refuses a rule whose pooled bound holds but which stops more than calibrate's --source-max of one source's passing runs, and names it", () => {
    // Review s41 item 3: pPass < 0.05 after 30 was recommended on 4/192 pooled (upper 4.7 %) while all 4 were CodeR's (4/64).
    const runs = [
      ...Array.from({ length: 60 }, () => run('CodeR', true, 0.6)),
      ...Array.from({ length: 4 }, () => run('CodeR', true, 0.01)),
      ...Array.from({ length: 135 }, () => run('CodeR', false, 0.01)),
      ...Array.from({ length: 128 }, () => run('other', true, 0.6)),
      ...Array.from({ length: 200 }, () => run('other', false, 0.6)),
    ];
    const e = evaluateForecastStop(runs);
    const p = e.points.find((x) => x.floor === 0.02 && x.minSteps === 5)!;
    expect(p).toMatchObject({ passingStopped: 4, passing: 192 });
    expect(p.passingUpper!).toBeLessThanOrEqual(0.05);
    expect(p.worstSource).toEqual({ source: 'CodeR', passingStopped: 4, passing: 64 });
    expect(p.supported).toBe(false);
    expect(e.sourceMax).toBe(0.02);
    expect(e.recommended).toBeNull();
    expect(e.reason).toContain("but stops 4 / 64 of CodeR's passing runs");
    // With a cap the source meets (4 <= 10 % of 64) the same rule is recommended.
    const loose = evaluateForecastStop(runs, 0.05, undefined, 0.1);
    expect(loose.recommended?.passingStopped).toBe(4);
    expect(loose.recommended?.worstSource?.source).toBe('CodeR');
  });
});
