/** InFlight: callers that come while a key's work runs share it; once settled (or forgotten) the next call starts anew. */
import { describe, expect, it } from 'vitest';
import { InFlight } from '../src/in-flight.js';

const later = <T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: Error) => void } => {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

describe('InFlight', () => {
  it('shares one run per key until it settles, a failure too', async () => {
    const f = new InFlight<string, number>();
    const first = later<number>();
    let started = 0;
    const start = (p: Promise<number>) => () => (started++, p);
    const a = f.run('k', start(first.promise));
    const b = f.run('k', start(Promise.resolve(2)));
    const other = f.run('j', start(Promise.resolve(3)));
    expect(b).toBe(a);
    expect(f.has('k')).toBe(true);
    expect(started).toBe(2);
    first.resolve(1);
    expect(await a).toBe(1);
    expect(await other).toBe(3);
    expect(f.has('k')).toBe(false);
    const failed = later<number>();
    const c = f.run('k', start(failed.promise));
    expect(f.run('k', start(Promise.resolve(4)))).toBe(c);
    failed.reject(new Error('no'));
    await expect(c).rejects.toThrow('no');
    expect(await f.run('k', start(Promise.resolve(5)))).toBe(5);
    expect(started).toBe(4); // a, other, c, the last: the shared calls started nothing
  });

  it('after forget, the next call starts anew and the old run settling leaves it in place', async () => {
    const f = new InFlight<string, number>();
    const old = later<number>();
    const a = f.run('k', () => old.promise);
    f.forget('k');
    const next = later<number>();
    const b = f.run('k', () => next.promise);
    expect(b).not.toBe(a);
    old.resolve(1);
    await a;
    expect(f.has('k')).toBe(true);
    expect(f.run('k', () => Promise.resolve(9))).toBe(b);
    next.resolve(2);
    expect(await b).toBe(2);
    expect(f.has('k')).toBe(false);
  });
});
