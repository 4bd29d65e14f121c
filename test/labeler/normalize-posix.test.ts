/**
 * `normalizePosix` returns a path that is already normal as it is (no split and join): the same result as the
 * split-and-join it did on every path, on generated paths built from the segments its rules turn on.
 */
import { describe, expect, it } from 'vitest';
import { normalizePosix, normalizeSegments } from '../../src/core/labeler/paths.js';
import { generated } from './helpers.js';

/** The implementation before the shortcut: every path split and joined. */
const splitJoin = normalizeSegments;

describe('normalizePosix', () => {
  it('gives what splitting and joining gave, on generated paths', () => {
    const parts = ['a', 'bc', 'node_classes.py', '.', '..', '...', '.a', 'a.', '..b', '/', '//', '~', ' ', '\\'];
    let changed = 0;
    for (const p of generated(parts, 30_000, 8, 11)) {
      const want = splitJoin(p);
      if (want !== p) changed++;
      expect(normalizePosix(p), JSON.stringify(p)).toBe(want);
    }
    // Both kinds were generated: paths left as they are and paths the rules rewrite.
    expect(changed).toBeGreaterThan(1000);
    expect(changed).toBeLessThan(29_000);
  });

  it('keeps a normal path and rewrites the rest', () => {
    for (const p of ['a', 'a/b.py', '/testbed/a/b.py', '...', '.a/b.', '~/x', 'a..b/c']) expect(normalizePosix(p)).toBe(p);
    expect(['', '.', '/', '//', 'a/', './a', 'a/./b', 'a/../b', '../a', '/..', 'a//b', '/a/.'].map(normalizePosix)).toEqual(['.', '.', '/', '/', 'a', 'a', 'a/b', 'b', '../a', '/', 'a/b', '/a']);
  });
});
