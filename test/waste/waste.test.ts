import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import type { State, Step, WasteItem } from '../../src/core/types.js';
import { wasteReport, wastedStepSet } from '../../src/core/waste/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { st } from '../fixtures/make-state.js';

const opts = { settings: DEFAULT_CONFIG.waste, tau: DEFAULT_CONFIG.tau };
const of = (items: WasteItem[], category: WasteItem['category']) => items.filter((i) => i.category === category);

describe('waste: regression loop', () => {
  const edit = (t: number) => st(t, 'I', { file: 'src/a.py', changesFile: true, tool: 'str_replace_editor', cost: 100 + t });
  const fail = (t: number) => st(t, 'V', { failed: true, cost: 5 });

  it('edit → fail → edit same file → fail is a loop of 2 cycles; cycle 2 is wasted', () => {
    const states = [st(0, 'E'), edit(1), fail(2), edit(3), fail(4), st(5, 'V', { kind: 'run_test' })];
    const items = of(wasteReport(states, opts), 'regression_loop');
    expect(items).toEqual([{ category: 'regression_loop', steps: [1, 2, 3, 4], tool: 'str_replace_editor', wastedSteps: 2, wastedTokens: 103 + 5 }]);
  });

  it('one failed cycle, or an edit of another file in between, is no loop', () => {
    expect(of(wasteReport([edit(0), fail(1), st(2, 'E')], opts), 'regression_loop')).toEqual([]);
    const other = st(2, 'I', { file: 'src/b.py', changesFile: true });
    expect(of(wasteReport([edit(0), fail(1), other, fail(3), edit(4), fail(5)], opts), 'regression_loop')).toEqual([]);
  });

  it('a passing run closes the loop', () => {
    const states = [edit(0), fail(1), st(2, 'V', { kind: 'run_test', failed: false }), edit(3), fail(4)];
    expect(of(wasteReport(states, opts), 'regression_loop')).toEqual([]);
  });
});

describe('waste: blind retry episodes', () => {
  it('groups consecutive retries; steps = the repeated state, then the retries; all retries wasted', () => {
    const states = [
      st(0, 'V', { hash: 'pytest', tool: 'bash', cost: 7 }),
      st(1, 'V', { hash: 'pytest', cost: 7 }),
      st(2, 'O', { hash: 'think' }),
      st(3, 'V', { hash: 'pytest', cost: 7 }),
      st(4, 'E'),
      st(5, 'V', { hash: 'pytest', cost: 7 }),
    ];
    const items = of(wasteReport(states, opts), 'blind_retry');
    expect(items).toEqual([
      { category: 'blind_retry', steps: [0, 1, 3], tool: 'bash', wastedSteps: 2, wastedTokens: 14 },
      { category: 'blind_retry', steps: [3, 5], tool: 'bash', wastedSteps: 1, wastedTokens: 7 },
    ]);
  });
});

describe('waste: redundant step', () => {
  it('a read of lines an earlier read of the same unchanged file showed is redundant; after a change it is not', () => {
    const states = [
      st(0, 'E', { file: 'a.py', range: [40, 90], tool: 'view' }),
      st(1, 'E', { file: 'a.py', range: [50, 80], tool: 'view', cost: 33 }),
      st(2, 'I', { file: 'a.py', changesFile: true }),
      st(3, 'E', { file: 'a.py', range: [50, 80], tool: 'view' }),
    ];
    const items = of(wasteReport(states, opts), 'redundant_step');
    expect(items).toEqual([{ category: 'redundant_step', steps: [0, 1], tool: 'view', wastedSteps: 1, wastedTokens: 33 }]);
  });

  it('an install or a deletion in between is a change too', () => {
    for (const change of [st(1, 'O', { kind: 'install', changesEnv: true }), st(1, 'O', { kind: 'housekeeping', changesEnv: true })]) {
      const states = [st(0, 'E', { file: 'a.py', range: [40, 90] }), change, st(2, 'E', { file: 'a.py', range: [50, 80] })];
      expect(of(wasteReport(states, opts), 'redundant_step')).toEqual([]);
    }
  });

  it('a window moved to show new lines, a search of a read file, a whole-file read and a read after a failed one are not redundant', () => {
    const moved = [st(0, 'E', { file: 'a.py', range: [1, 100] }), st(1, 'E', { file: 'a.py', range: [11, 110] })];
    const search = [st(0, 'E', { file: 'a.py', range: [1, 100] }), st(1, 'E', { kind: 'search', file: 'a.py' })];
    const whole = [st(0, 'E', { file: 'a.py' }), st(1, 'E', { file: 'a.py', range: [1, 10] })];
    const failed = [st(0, 'E', { file: 'a.py', range: [1, 400], failed: true }), st(1, 'E', { file: 'a.py', range: [1, 286] })];
    for (const states of [moved, search, whole, failed]) expect(of(wasteReport(states, opts), 'redundant_step')).toEqual([]);
  });

  it('a confirmed submit (a finish asked twice by the harness) is neither redundant nor a retry', () => {
    const submit = (t: number) => st(t, 'O', { kind: 'finish', hash: 'submit', tool: 'submit' });
    const states = [submit(0), st(1, 'O', { kind: 'housekeeping', hash: 'rm reproduce.py', changesEnv: true }), submit(2), submit(3)];
    const items = wasteReport(states, opts);
    expect(of(items, 'redundant_step')).toEqual([]);
    expect(of(items, 'blind_retry')).toEqual([]);
  });

  it('another stage or a blind retry is not a redundant step', () => {
    const states = [st(0, 'E', { file: 'a.py', range: [1, 10] }), st(1, 'V', { file: 'a.py', range: [1, 10] }), st(2, 'E', { hash: 'h0', file: 'a.py', range: [1, 10] })];
    const items = wasteReport(states, opts);
    expect(of(items, 'redundant_step')).toEqual([]);
    expect(of(items, 'blind_retry').map((i) => i.steps)).toEqual([[0, 2]]);
  });
});

describe('waste: irrelevant exploration', () => {
  const states: State[] = [
    st(0, 'E', { file: 'docs/x.md', tool: 'view', cost: 11 }),
    st(1, 'E', { file: 'src/a.py' }),
    st(2, 'E', { file: 'setup.py', tool: 'view', cost: 4 }),
    st(3, 'E', { file: 'docs/x.md', tool: 'view', cost: 12 }),
    st(4, 'I', { file: 'src/a.py', changesFile: true }),
  ];

  it('with a PTA: E states on files no node touches, grouped per file', () => {
    const items = of(wasteReport(states, { ...opts, ptaFiles: ['src/a.py', 'setup.py'] }), 'irrelevant_exploration');
    expect(items).toEqual([{ category: 'irrelevant_exploration', steps: [0, 3], tool: 'view', wastedSteps: 2, wastedTokens: 23 }]);
  });

  it('reference-free: files never edited nor read again', () => {
    const items = of(wasteReport(states, opts), 'irrelevant_exploration');
    expect(items).toEqual([{ category: 'irrelevant_exploration', steps: [2], tool: 'view', wastedSteps: 1, wastedTokens: 4 }]);
  });

  // Shapes read on real runs (audit 13, docs/detectors.md): a listing of the folder the next read comes from (gpt-5-mini, django-11749), a
  // search of the whole tree (CodeR's `search_dir X /`), a file opened by a short path that was not found and then
  // read by its full one (CodeR, django-17087's serializer.py). Each was used; the one lone read is not.
  it('reference-free: a folder another state went into, the whole tree, or the same file by another path is used', () => {
    const used: State[] = [
      st(0, 'E', { file: 'tests/user_commands/management/commands/', kind: 'list', tool: 'bash' }),
      st(1, 'E', { file: 'tests/user_commands/management/commands/required_option.py', tool: 'bash' }),
      st(2, 'E', { file: '/', kind: 'search', tool: 'search_dir' }),
      st(3, 'E', { file: '.', kind: 'search', tool: 'bash' }),
      st(4, 'E', { file: 'serializer.py', tool: 'open' }),
      st(5, 'E', { file: '/django__django/django/db/migrations/serializer.py', tool: 'open' }),
      st(6, 'E', { file: 'django/utils/tree.py', tool: 'open' }),
      st(7, 'E', { file: '/django__django/django/utils/tree.py', tool: 'open' }),
      st(8, 'E', { file: 'docs/lone.md', tool: 'open', cost: 9 }),
      st(9, 'I', { file: 'tests/user_commands/management/commands/required_option.py', changesFile: true }),
    ];
    expect(of(wasteReport(used, opts), 'irrelevant_exploration')).toEqual([{ category: 'irrelevant_exploration', steps: [8], tool: 'open', wastedSteps: 1, wastedTokens: 9 }]);
  });

  // A failed read explored nothing (docs/detectors.md, "A failed read"): its waste is a tool failure, not an irrelevant file.
  it('reference-free: a failed read (a path that does not exist) is not irrelevant exploration; with a PTA nothing changed', () => {
    const missing = (t: number, file: string) => st(t, 'E', { file, tool: 'bash', failed: true });
    const runs: State[] = [missing(0, 'tests/test_missing.py'), st(1, 'E', { file: 'docs/lone.md', tool: 'open', cost: 9 }), missing(2, 'nope/')];
    expect(of(wasteReport(runs, opts), 'irrelevant_exploration').map((i) => i.steps)).toEqual([[1]]);
    expect(of(wasteReport(runs, { ...opts, ptaFiles: ['src/a.py'] }), 'irrelevant_exploration').map((i) => i.steps)).toEqual([[0], [1], [2]]);
  });

  it('reference-free, from steps: `cat` of a missing file ("No such file or directory") is not counted, `cat` of a file read once is', () => {
    const cat = (t: number, file: string, observation: string, exitCode: number): Step => ({
      t,
      tool: 'bash',
      cwd: '/testbed',
      action: { kind: 'shell', command: `cat ${file}` },
      observation,
      exitCode,
    });
    const steps = [cat(0, 'tests/test_gone.py', 'cat: tests/test_gone.py: No such file or directory\n', 1), cat(1, 'setup.cfg', '[metadata]\nname = x\n', 0)];
    const { report } = scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
    expect(report.waste.filter((i) => i.category === 'irrelevant_exploration').map((i) => i.steps)).toEqual([[1]]);
  });

  it('reference-free: a file that only shares a name with another is still read once (a name is not a path end)', () => {
    const two: State[] = [st(0, 'E', { file: 'src/a_tree.py', tool: 'open', cost: 3 }), st(1, 'E', { file: 'src/tree.py', tool: 'open', cost: 5 })];
    expect(of(wasteReport(two, opts), 'irrelevant_exploration').map((i) => i.steps)).toEqual([[0], [1]]);
  });
});

describe('waste: cyclic pattern', () => {
  const cyc = (hashes: string) => [...hashes].map((h, t) => st(t, 'E', { hash: h, tool: `tool-${h}` }));

  it('A B A B A B is a block of 2 three times; occurrences after the first are wasted', () => {
    const items = of(wasteReport(cyc('xABABABy'), opts), 'cyclic_pattern');
    expect(items).toEqual([{ category: 'cyclic_pattern', steps: [1, 2, 3, 4, 5, 6], tool: 'tool-A', wastedSteps: 4, wastedTokens: 40 }]);
  });

  it('two occurrences are not enough; A A A A is not a cycle (it is a retry)', () => {
    expect(of(wasteReport(cyc('ABABx'), opts), 'cyclic_pattern')).toEqual([]);
    expect(of(wasteReport(cyc('AAAAAA'), opts), 'cyclic_pattern')).toEqual([]);
  });

  it('a block of 3 and a block of 4, a trailing partial occurrence excluded', () => {
    expect(of(wasteReport(cyc('ABCABCABCA'), opts), 'cyclic_pattern').map((i) => [i.steps, i.wastedSteps])).toEqual([[[0, 1, 2, 3, 4, 5, 6, 7, 8], 6]]);
    expect(of(wasteReport(cyc('ABACABACABAC'), opts), 'cyclic_pattern').map((i) => i.wastedSteps)).toEqual([8]);
  });

  it('A B A B A B A B is reported once (block 2), not again as block 4', () => {
    expect(of(wasteReport(cyc('ABABABABABAB'), opts), 'cyclic_pattern').length).toBe(1);
  });
});

describe('wastedStepSet', () => {
  it('takes the last wastedSteps steps of each item, deduplicated', () => {
    const items: WasteItem[] = [
      { category: 'blind_retry', steps: [0, 1, 2], tool: 'x', wastedSteps: 2, wastedTokens: 0 },
      { category: 'cyclic_pattern', steps: [1, 2, 3, 4], tool: 'x', wastedSteps: 2, wastedTokens: 0 },
    ];
    expect([...wastedStepSet(items)].sort()).toEqual([1, 2, 3, 4]);
  });
});
