import { SteplensError } from '../errors.js';

/** An integer flag at least `min` (one usage error naming the flag, and `why` the minimum, otherwise). */
export function intFlag(value: string | undefined, flag: string, fallback: number, min: number, why = ''): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new SteplensError('usage', `${flag} must be an integer >= ${min}${why}, got '${value}'`);
  return n;
}
