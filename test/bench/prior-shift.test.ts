/**
 * bench/forecast-prior-shift/estimators.ts on data where label shift holds exactly: scores N(+1, 1) for passing
 * runs and N(−1, 1) for failing ones, pPass = σ(2z) (calibrated at a pass rate of 1/2). A source passing 20 % of
 * the time then has its pass rate recovered by EM and BBSE, not by the mean pPass (pulled toward 1/2), and the
 * shifted pPass is the posterior at 20 %. The bench's negative result on the real sources rests on these being right.
 */
import { describe, expect, it } from 'vitest';
import { emPrior, estimatePrior, priorShifted, shiftPPass, trainingPrior } from '../../bench/forecast-prior-shift/estimators.js';
import { rng } from '../forecast/rng.js';

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** `n` runs, a share `rate` passing, each with the pPass a forecaster calibrated at 1/2 gives it. */
function sample(n: number, rate: number, seed: number): Array<{ p: number; pass: boolean }> {
  const random = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: n }, (_, i) => {
    const pass = i < Math.round(n * rate);
    return { p: sigmoid(2 * ((pass ? 1 : -1) + normal())), pass };
  });
}

describe('prior-shift estimators', () => {
  const train = trainingPrior(sample(4000, 0.5, 1));
  const target = sample(4000, 0.2, 2);
  const ps = target.map((x) => x.p);

  it('the training side: its pass rate and its mean pPass by outcome', () => {
    expect(train.prior).toBeCloseTo(0.5, 6);
    expect(train.passMean!).toBeGreaterThan(0.7);
    expect(train.failMean!).toBeLessThan(0.3);
  });

  it('EM and BBSE find a 20 % pass rate from the pPass alone; the mean pPass stays nearer 1/2', () => {
    expect(Math.abs(emPrior(ps, train.prior) - 0.2)).toBeLessThan(0.03);
    expect(Math.abs(estimatePrior('bbse', ps, train)! - 0.2)).toBeLessThan(0.03);
    expect(Math.abs(estimatePrior('bbse-hard', ps, train)! - 0.2)).toBeLessThan(0.03);
    expect(estimatePrior('mean', ps, train)!).toBeGreaterThan(0.25);
  });

  it('the shifted pPass is the posterior at the new rate (the logit moved by the prior odds)', () => {
    const z = 0.3;
    const atHalf = sigmoid(2 * z);
    // Bayes at a 20 % rate: odds 2z + log(0.2 / 0.8).
    expect(shiftPPass(atHalf, 0.5, 0.2)).toBeCloseTo(sigmoid(2 * z + Math.log(0.25)), 12);
    expect(shiftPPass(atHalf, 0.2, 0.2)).toBeCloseTo(atHalf, 12);
    const { prior, pPass } = priorShifted('em', ps, train);
    // Calibrated in the large after the shift: the mean shifted pPass is the estimated rate.
    expect(pPass.reduce((a, b) => a + b, 0) / pPass.length).toBeCloseTo(prior!, 4);
  });

  it('estimates are clamped to [0.01, 0.99] and BBSE without a confusion gives none', () => {
    expect(emPrior([0.001, 0.002], 0.5)).toBe(0.01);
    expect(estimatePrior('bbse', ps, { prior: 0.5 })).toBeNull();
    expect(estimatePrior('em', [], train)).toBeNull();
  });
});
