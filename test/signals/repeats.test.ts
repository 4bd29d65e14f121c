import { describe, expect, it } from 'vitest';
import { createRetryDetector } from '../../src/core/signals/repeats.js';
import type { State } from '../../src/core/types.js';
import { st } from '../fixtures/make-state.js';

/** The retry each state is reported as (`of` index), or undefined. */
function retries(states: readonly State[]): Array<number | undefined> {
  const d = createRetryDetector();
  return states.map((s) => d.add(s));
}

const run = (t: number, over: Partial<State> = {}) => st(t, 'V', { kind: 'run_script', command: true, hash: 'python t.py', ...over });

describe('blind-retry detector', () => {
  it('reports the most recent earlier occurrence; a change in between resets', () => {
    expect(retries([st(0, 'E', { hash: 'a' }), st(1, 'E', { hash: 'a' }), st(2, 'E', { hash: 'a' }), st(3, 'I', { hash: 'x', changesFile: true }), st(4, 'E', { hash: 'a' })])).toEqual([
      undefined,
      0,
      1,
      undefined,
      undefined,
    ]);
  });

  it('a run repeated across an install (the README showcase: pip install between two runs) is no retry', () => {
    const states = [
      run(0),
      st(1, 'O', { kind: 'install', hash: 'pip install asgiref', changesEnv: true }),
      run(2),
      st(3, 'O', { kind: 'install', hash: 'pip install pytz', changesEnv: true }),
      run(4),
    ];
    expect(retries(states)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('a change that is itself a repeat changed nothing: the same install re-run does not excuse the next run', () => {
    const install = (t: number) => st(t, 'O', { kind: 'install', hash: 'pip install x', changesEnv: true });
    expect(retries([install(0), run(1), install(2), run(3)])).toEqual([undefined, undefined, 0, 1]);
  });

  it('a re-read of a file is a retry unless that file or the tree changed; an install or another file does not count', () => {
    const read = (t: number) => st(t, 'E', { kind: 'read', hash: 'view a.py 1:100', file: 'a.py', range: [1, 100] });
    const other = st(1, 'I', { kind: 'edit', hash: 'edit b.py', file: 'b.py', changesFile: true });
    const install = st(2, 'O', { kind: 'install', hash: 'pip install x', changesEnv: true });
    expect(retries([read(0), other, install, read(3)])).toEqual([undefined, undefined, undefined, 0]);
    const same = st(1, 'I', { kind: 'edit', hash: 'edit a.py', file: 'a.py', changesFile: true });
    expect(retries([read(0), same, read(2)])).toEqual([undefined, undefined, undefined]);
    const checkout = st(1, 'O', { kind: 'housekeeping', hash: 'git stash', changesFile: true });
    expect(retries([read(0), checkout, read(2)])).toEqual([undefined, undefined, undefined]);
    const rm = st(1, 'O', { kind: 'housekeeping', hash: 'rm -rf build', changesEnv: true });
    expect(retries([read(0), rm, read(2)])).toEqual([undefined, undefined, undefined]);
  });

  it('a run is a retry only with nothing changed at all: another file edited in between resets it', () => {
    const other = st(1, 'V', { kind: 'edit', hash: 'edit test.py', file: 'test.py', changesFile: true });
    expect(retries([run(0), other, run(2)])).toEqual([undefined, undefined, undefined]);
  });

  it('a script run labelled as its edit depends on more than its target: a rewritten script in between resets it', () => {
    const fix = (t: number) => st(t, 'I', { kind: 'edit', command: true, hash: 'python fix.py', file: 'src.py', changesFile: true });
    const rewrite = st(1, 'V', { kind: 'edit', hash: 'cat > fix.py', file: 'fix.py', changesFile: true });
    expect(retries([fix(0), rewrite, fix(2)])).toEqual([undefined, undefined, undefined]);
  });

  it('a variant (an edit re-indented, a command in another directory) is not a retry', () => {
    expect(retries([run(0), run(1, { variant: true }), run(2)])).toEqual([undefined, undefined, 1]);
  });

  it('turns without an action and unparsed calls are never retries; their constant hashes match nothing', () => {
    const none = (t: number) => st(t, 'O', { kind: 'none', hash: 'none' });
    const other = (t: number) => st(t, 'E', { kind: 'other', hash: 'other\0edit' });
    expect(retries([none(0), none(1), other(2), other(3)])).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('a finish before the end hands over to a fresh context (CodeR succeed, a confirm turn): earlier actions are forgotten', () => {
    const read = (t: number) => st(t, 'E', { kind: 'read', hash: 'open a.py', file: 'a.py' });
    const finish = (t: number) => st(t, 'O', { kind: 'finish', hash: 'succeed' });
    expect(retries([read(0), finish(1), read(2), finish(3), read(4), read(5)])).toEqual([undefined, undefined, undefined, undefined, undefined, 4]);
  });
});
