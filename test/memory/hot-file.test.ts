/**
 * A hot file keeps its packing of before only while it is a line array (its unchanged runs are reused when it cools):
 * once a whole text replaced it (a write, a str_replace from line 1), that packing is dropped at once instead of
 * being kept until the file cools (state/hot-file.ts), and every later answer is the sparse-array workspace's.
 */
import { describe, expect, it } from 'vitest';
import type { HotFile } from '../../src/core/state/hot-file.js';
import { ShadowWorkspace } from '../../src/core/state/shadow-workspace.js';
import { SparseWorkspace } from './sparse-workspace.js';

const lines = (tag: string, n: number): string => Array.from({ length: n }, (_, i) => `    ${tag}_${i} = compute(${i})`).join('\n') + '\n';

describe('a hot file', () => {
  it('keeps its packing of before while a line array, none once a whole text replaced it', () => {
    const ws = new ShadowWorkspace();
    const sparse = new SparseWorkspace();
    const hot = (ws as unknown as { hot: Map<string, HotFile> }).hot;
    const both = (op: (w: ShadowWorkspace | SparseWorkspace) => void): void => {
      op(ws);
      op(sparse);
    };
    const same = (file: string): void => expect(ws.prefix(file)).toEqual(sparse.prefix(file));

    both((w) => w.setText('a.py', lines('a', 80)));
    ws.settle();
    ws.settle();
    expect(hot.has('a.py')).toBe(false);
    // Lines that are no window (two apart): the file becomes a hot line array and keeps its packing of before.
    both((w) =>
      w.observe(
        'a.py',
        new Map([
          [3, 'x = 3'],
          [5, 'x = 5'],
        ]),
      ),
    );
    expect(hot.get('a.py')?.arr).toBeDefined();
    expect(hot.get('a.py')?.previous).toBeDefined();
    same('a.py');
    // A str_replace over the whole known file: a whole text, the packing of before is no longer kept.
    expect(ws.replace('a.py', 'a_10 = compute(10)', 'a_10 = 0')).toEqual([11, 11]);
    expect(hot.get('a.py')?.text).toBeDefined();
    expect(hot.get('a.py')?.previous).toBeUndefined();
    sparse.setText('a.py', sparse.prefix('a.py')!.text.replace('a_10 = compute(10)', 'a_10 = 0') + '\n');
    same('a.py');

    // A packed file written whole: hot as a text at once, nothing of before kept.
    both((w) => w.setText('b.py', lines('b', 60)));
    ws.settle();
    ws.settle();
    both((w) => w.setText('b.py', lines('c', 70)));
    expect(hot.get('b.py')?.previous).toBeUndefined();
    for (let i = 0; i < 3; i++) ws.settle();
    expect(hot.size).toBe(0);
    same('a.py');
    same('b.py');
    expect(ws.size).toBe(sparse.size);
  });
});
