import { describe, expect, it } from 'vitest';
import { commandTokens, normalizeCommand } from '../../src/core/state/normalize.js';
import { stepFailed } from '../../src/core/state/failure.js';
import { stepCost } from '../../src/core/state/cost.js';
import { resolveConfig } from '../../src/core/config.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { createScorer } from '../../src/core/scorer.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { run } from './helpers.js';

describe('normalisation and hashing', () => {
  it('cd prefixes, roots and whitespace do not change the hash', () => {
    const [a, b, c] = run(['cd /testbed && grep -rn foo .', 'grep  -rn foo .', 'cd /testbed; grep -rn foo /testbed']);
    expect(a?.state.hash).toBe(b?.state.hash);
    expect(c?.state.hash).toBe(a?.state.hash);
    expect(a?.state.hash).toMatch(/^[0-9a-f]{32}$/);
  });
  it('different commands hash differently', () => {
    const [a, b] = run(['grep -rn foo .', 'grep -rn bar .']);
    expect(a?.state.hash).not.toBe(b?.state.hash);
  });
  it('edits hash file + old + new with whitespace collapsed', () => {
    const e = (n: string) => ({ kind: 'edit', op: 'str_replace', path: '/testbed/a.py', old: 'x  =  1', new: n }) as const;
    const [a, b, c] = run([e('x = 2'), e('x =\n   2'), e('x = 3')]);
    expect(a?.state.hash).toBe(b?.state.hash);
    expect(a?.state.hash).not.toBe(c?.state.hash);
  });
  it('normalizeCommand and tokens', () => {
    expect(normalizeCommand('cd /testbed && cd astropy && python  -m pytest /testbed/astropy/x.py')).toBe('python -m pytest astropy/x.py');
    expect(commandTokens('grep -rn foo src')).toEqual(['foo', 'grep', 'src']);
    expect(commandTokens('rg foo src')).toEqual(['foo', 'rg', 'src']);
    const [s] = run(['cd /testbed && grep -rn "foo" src 2>&1 | head']);
    expect(s?.state).toMatchObject({ command: true, tokens: ['foo', 'grep', 'head', 'src'] });
  });
  it('non-terminal states have no tokens', () => {
    const [s] = run([{ kind: 'view', path: '/testbed/a.py' }]);
    expect(s?.state).toMatchObject({ command: false, tokens: [] });
  });
});

describe('failed and cost', () => {
  const step = (observation: string, exitCode?: number) => ({
    t: 0,
    tool: 'bash',
    action: { kind: 'shell', command: 'python x.py' } as const,
    observation,
    ...(exitCode === undefined ? {} : { exitCode }),
  });
  it('uses the exit code when known', () => {
    expect(stepFailed(step('Traceback (most recent call last):', 0))).toBe(false);
    expect(stepFailed(step('', 1))).toBe(true);
  });
  it('recognises failure text when the exit code is unknown', () => {
    expect(stepFailed(step('Traceback (most recent call last):\n  File "x.py", line 1'))).toBe(true);
    expect(stepFailed(step('FAILED tests/test_x.py::test_a - AssertionError'))).toBe(true);
    expect(stepFailed(step('==== 1 failed, 3 passed in 0.2s ===='))).toBe(true);
    expect(stepFailed(step('bash: frob: command not found'))).toBe(true);
    expect(stepFailed(step("python: can't open file 'x.py': [Errno 2] No such file or directory"))).toBe(true);
    expect(stepFailed(step('==== 4 passed in 0.2s ===='))).toBe(false);
  });
  it('editor errors count, quoted tracebacks in a view do not', () => {
    expect(
      stepFailed({
        t: 0,
        tool: 'str_replace_editor',
        action: { kind: 'edit', op: 'str_replace', path: 'a.py', old: 'x', new: 'y' },
        observation: 'No replacement was performed, old_str `x` did not appear verbatim in a.py.',
      }),
    ).toBe(true);
    expect(stepFailed({ t: 0, tool: 'str_replace_editor', action: { kind: 'view', path: 'a.py' }, observation: '     1\t# Traceback (most recent call last):' })).toBe(false);
  });
  it('cost: log tokens, else characters / charsPerToken', () => {
    expect(stepCost({ ...step('abcd'), tokens: { prompt: 100, completion: 20 } }, 4)).toBe(120);
    expect(stepCost(step('abcdef'), 4)).toBe(Math.ceil(('python x.py'.length + 6) / 4));
    expect(stepCost(step('abcdef'), 2)).toBe(Math.ceil(('python x.py'.length + 6) / 2));
  });
  it("the scoring config's charsPerToken prices what the scorer sees", () => {
    const costWith = (config: unknown) => {
      const cfg = resolveConfig(config);
      if (!cfg.ok) throw new Error(cfg.error);
      const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers(), config: cfg.value });
      return scorer.push(step('abcdef')).state.cost;
    };
    expect(costWith(undefined)).toBe(Math.ceil(('python x.py'.length + 6) / 4));
    expect(costWith({ charsPerToken: 2 })).toBe(Math.ceil(('python x.py'.length + 6) / 2));
  });
});

describe('shadow workspace and scope', () => {
  const VIEW_OBS =
    "Here's the result of running `cat -n` on /testbed/pkg/models.py:\n" +
    ['class Schedule:', '    def __init__(self):', '        self.a = 1', '', '    def update(self):', '        self.a = 2', '', 'def helper():', '    return 3']
      .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
      .join('\n') +
    '\n';
  const view = { action: { kind: 'view', path: '/testbed/pkg/models.py' } as const, observation: VIEW_OBS };

  it('a str_replace gets the range where old sits and the scope around it', () => {
    const out = run([view, { kind: 'edit', op: 'str_replace', path: '/testbed/pkg/models.py', old: '        self.a = 2\n', new: '        self.a = 2\n        self.b = 3\n' }]);
    expect(out[1]?.label.range).toEqual([6, 6]);
    expect(out[1]?.state.scope).toBe('pkg/models.py::Schedule.update');
  });
  it('tracks line shifts from earlier edits', () => {
    const out = run([
      view,
      { kind: 'edit', op: 'insert', path: '/testbed/pkg/models.py', new: 'import os\nimport sys\n', range: [0, 0] },
      { kind: 'view', path: '/testbed/pkg/models.py', range: [10, 11] },
    ]);
    expect(out[2]?.state.scope).toBe('pkg/models.py::helper');
  });
  it('views and sed -n reads of known text get a scope; unknown text none', () => {
    const out = run([view, "sed -n '2,3p' pkg/models.py", { kind: 'view', path: '/testbed/other.py', range: [5, 9] }]);
    expect(out[1]?.state.scope).toBe('pkg/models.py::Schedule.__init__');
    expect(out[2]?.state.scope).toBeUndefined();
  });
  it('a created file is known text; shell writes make it unknown', () => {
    const text = 'def a():\n    return 1\n\ndef b():\n    return 2\n';
    const out = run([
      { kind: 'edit', op: 'create', path: '/testbed/pkg/new.py', text },
      { kind: 'view', path: '/testbed/pkg/new.py', range: [4, 5] },
      "sed -i 's/return 2/return 4/' pkg/new.py",
      { kind: 'view', path: '/testbed/pkg/new.py', range: [4, 5] },
    ]);
    expect(out[1]?.state.scope).toBe('pkg/new.py::b');
    expect(out[3]?.state.scope).toBeUndefined();
  });
  it('a failed str_replace leaves no range and forgets nothing it did not know', () => {
    const out = run([view, { action: { kind: 'edit', op: 'str_replace', path: '/testbed/pkg/models.py', old: 'nope', new: 'x' }, observation: 'No replacement was performed' }]);
    expect(out[1]?.label.range).toBeUndefined();
    expect(out[1]?.state.failed).toBe(true);
  });
});

describe('shadow workspace budget', () => {
  it('forgets the least recently seen or changed files past its budget, never the one just touched', async () => {
    const { ShadowWorkspace } = await import('../../src/core/state/shadow-workspace.js');
    const ws = new ShadowWorkspace(100);
    ws.setText('a.py', 'x = 1\n'.repeat(8)); // 8 lines of 5 chars + newline = 48
    ws.setText('b.py', 'y = 2\n'.repeat(8));
    expect(ws.size).toBe(96);
    ws.replaceLines('a.py', [1, 1], 'x = 10'); // a.py becomes the most recent
    ws.setText('c.py', 'z = 3\n'.repeat(8)); // over budget: b.py, the oldest, goes
    expect(ws.prefix('b.py')).toBeUndefined();
    expect(ws.prefix('a.py')?.text.startsWith('x = 10')).toBe(true);
    expect(ws.prefix('c.py')).toBeDefined();
    expect(ws.size).toBeLessThanOrEqual(100);
    ws.setText('huge.py', 'w\n'.repeat(200));
    expect(ws.prefix('huge.py')?.lines).toBe(200);
    expect(ws.prefix('a.py')).toBeUndefined();
    ws.forget('huge.py');
    expect(ws.size).toBe(0);
  });
});

describe('shadow workspace line edits past the known lines', () => {
  // jackson-core-1142's SWE-agent run: `edit 130:130` on Version.java with lines 1-100 known (a ranged view).
  it('an edit starting past the known lines forgets the file instead of appending the text as the next line', async () => {
    const { ShadowWorkspace } = await import('../../src/core/state/shadow-workspace.js');
    const ws = new ShadowWorkspace(1_000_000);
    ws.setText('V.java', 'a\nb\nc');
    ws.replaceLines('V.java', [6, 6], 'far');
    expect(ws.prefix('V.java')).toBeUndefined();
    ws.setText('V.java', 'a\nb\nc');
    ws.replaceLines('V.java', [4, 4], 'next');
    expect(ws.prefix('V.java')?.text).toBe('a\nb\nc\nnext');
  });
});

describe('shadow workspace size bookkeeping', () => {
  it('the incremental size always equals the characters of the lines kept', async () => {
    const { ShadowWorkspace } = await import('../../src/core/state/shadow-workspace.js');
    const ws = new ShadowWorkspace(1_000_000);
    const kept = (files: string[]) =>
      files.reduce((n, f) => {
        const p = ws.prefix(f);
        return n + (p ? p.text.length + 1 : 0);
      }, 0);
    ws.setText('a.py', 'one\ntwo\nthree');
    expect(ws.size).toBe(kept(['a.py']));
    ws.replaceLines('a.py', [2, 2], 'TWO\nTWO-B');
    expect(ws.size).toBe(kept(['a.py']));
    ws.insert('a.py', 0, 'zero');
    expect(ws.size).toBe(kept(['a.py']));
    ws.replace('a.py', 'three', 'III');
    expect(ws.size).toBe(kept(['a.py']));
    ws.observe(
      'a.py',
      new Map([
        [1, 'ZERO'],
        [2, 'one'],
      ]),
    );
    expect(ws.size).toBe(kept(['a.py']));
    ws.setText('a.py', 'x');
    expect(ws.size).toBe(2);
    ws.observe('b.py', new Map([[3, 'c']]));
    expect(ws.size).toBe(4);
  });
});
