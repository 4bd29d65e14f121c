/**
 * Work done in steps: a generator that yields between slices of its work, so a caller sharing a thread (the
 * server) can let other work run between them; {@link runToEnd} is the same work in one go (the synchronous API),
 * so both give the same result.
 */

/** States a waste detector or a states' rebuild visits between two yields. */
export const STATES_PER_STEP = 500;

/** Runs work in steps to its end, in one go. */
export function runToEnd<T>(steps: Generator<void, T>): T {
  let r = steps.next();
  while (r.done !== true) r = steps.next();
  return r.value;
}

/** Work in steps that is already done (a result kept from before, as the steps that made it would return it). */
// eslint-disable-next-line require-yield
export function* done<T>(value: T): Generator<void, T> {
  return value;
}
