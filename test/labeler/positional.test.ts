/** `positional(args, k, opts)` is `positionals(args, opts)[k]` without the list (env-effects and script-writes read it so). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positional, positionals } from '../../src/core/labeler/shell-args.js';

const arg = fc.oneof(fc.constantFrom('-', '--', '-x', '--check', 'run', 'build', 'setup.py', '', '-O', '--output=-', '-W', '-X', 'ignore'), fc.string({ maxLength: 4 }));

describe('positional', () => {
  it('equals positionals(args, opts)[k] for every k, with and without options that take a value', () => {
    const opts = new Set(['-W', '-X']);
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 12 }), (args) => {
        const all = positionals(args);
        for (let k = 0; k <= all.length + 1; k++) expect(positional(args, k)).toBe(all[k]);
        const withOpts = positionals(args, opts);
        for (let k = 0; k <= withOpts.length + 1; k++) expect(positional(args, k, opts)).toBe(withOpts[k]);
      }),
      { numRuns: 2000, seed: 1 },
    );
  });

  it('takes what follows -- as positional, a second -- too', () => {
    expect(positional(['-x', '--', '-y', '--', 'z'], 0)).toBe('-y');
    expect(positional(['-x', '--', '-y', '--', 'z'], 1)).toBe('--');
    expect(positional(['-', 'a'], 0)).toBe('-');
  });
});
