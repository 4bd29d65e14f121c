import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { labelSteps } from '../../src/core/state-builder.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import type { Step } from '../../src/core/types.js';
import { CORPUS, miniSwe11Steps, readJson, sweAgent11Steps } from './corpus.js';

const MOTO = 'christsakm__Trajectories/GOOD_EXAMPLES/getmoto__moto-6510/trace_01_gpt-5-2025-08-07/getmoto__moto-6510.traj';

describe('SWE-agent 1.1 getmoto__moto-6510 (gpt-5, resolved): every step', () => {
  const steps = sweAgent11Steps(MOTO);
  const out = labelSteps(steps, defaultAnalyzers());
  // [stage, rule, kind, file] per trajectory[] entry, in order.
  const expected: Array<[string, number, string, string?]> = [
    ['E', 4, 'list', '.'],
    ['E', 4, 'list', 'moto/scheduler'],
    ['E', 5, 'read', 'moto/scheduler/models.py'],
    ['E', 5, 'read', 'moto/scheduler/responses.py'],
    ['E', 4, 'list', 'tests/test_scheduler'],
    ['E', 5, 'read', 'tests/test_scheduler/test_scheduler.py'],
    ['E', 4, 'search', 'tests'], // grep -R "CreationDate" -n /testbed/tests | cat
    ['E', 4, 'search', 'tests/test_scheduler'],
    ['E', 6, 'run_other'], // python - << 'PY' (probe before the fix)
    ['E', 5, 'read', 'tests/test_scheduler/test_schedule_groups.py'],
    ['E', 4, 'search', 'tests'],
    ['E', 5, 'read', 'moto/kms/models.py'],
    ['I', 3, 'edit', 'moto/scheduler/models.py'],
    ['I', 3, 'edit', 'moto/scheduler/models.py'],
    ['V', 7, 'create', 'repro_scheduler_get_schedule.py'],
    ['V', 6, 'run_script', 'repro_scheduler_get_schedule.py'],
    ['E', 5, 'read', 'moto/core/utils.py'], // untouched file after the edit
    ['V', 2, 'run_test', 'tests/test_scheduler'],
    ['V', 6, 'run_other'],
    ['O', 1, 'none'],
    ['O', 1, 'finish'],
    ['O', 1, 'none'],
    ['O', 1, 'finish'],
  ];
  it('has one state per trajectory entry', () => expect(out).toHaveLength(expected.length));
  it.each(expected.map((e, i) => [i, ...e] as const))('step %i: %s rule %i %s %s', (i, stage, rule, kind, file) => {
    const l = out[i]?.label;
    expect(l).toMatchObject({ stage, rule, kind, unknown: false });
    if (file !== undefined) expect(l?.file).toBe(file);
  });
  it('resolves the scopes of both source edits', () => {
    expect(out[12]?.state.scope).toBe('moto/scheduler/models.py::Schedule');
    expect(out[13]?.state.scope).toBe('moto/scheduler/models.py::EventBridgeSchedulerBackend.update_schedule');
  });
});

describe('SWE-agent 0.x jackson-core-1142 (doubao) commands, as the format parser normalises them', () => {
  const cwd = '/fasterxml__jackson-core';
  const s = (t: number, tool: string, action: Step['action']): Step => ({ t, tool, cwd, action });
  const steps: Step[] = [
    s(0, '', { kind: 'none' }), // DISCUSSION without a command
    s(1, 'ls', { kind: 'shell', command: 'ls\n' }),
    s(2, 'find_file', { kind: 'search', query: 'Version.java', path: 'src' }),
    s(3, 'open', { kind: 'view', path: 'src/main/java/com/fasterxml/jackson/core/Version.java' }),
    s(4, 'create', { kind: 'edit', op: 'create', path: 'reproduce_npe.py', text: '' }),
    s(5, 'edit', { kind: 'edit', op: 'replace_lines', path: '/fasterxml__jackson-core/reproduce_npe.py', range: [1, 1], new: 'public class ReproduceNPE {\n}\n' }),
    s(6, 'create', { kind: 'edit', op: 'create', path: 'new_test.py', text: '' }),
    s(7, 'python', { kind: 'shell', command: 'python new_test.py\n' }),
    s(8, 'rm', { kind: 'shell', command: 'rm new_test.py\n' }),
    s(9, 'submit', { kind: 'finish' }),
  ];
  const out = labelSteps(steps, defaultAnalyzers());
  it.each([
    [0, 'O', 1],
    [1, 'E', 4],
    [2, 'E', 4],
    [3, 'E', 5],
    [4, 'E', 7],
    [5, 'E', 7],
    [6, 'E', 7],
    [7, 'E', 6],
    [8, 'O', 1],
    [9, 'O', 1],
  ] as const)('step %i is %s rule %i', (i, stage, rule) => {
    expect(out[i]?.label).toMatchObject({ stage, rule });
  });
  it('learns the repository root from cwd', () => {
    expect(out[5]?.label.file).toBe('reproduce_npe.py');
    expect(out[3]?.label.file).toBe('src/main/java/com/fasterxml/jackson/core/Version.java');
  });
});

describe('corpus coverage', () => {
  const files = [
    'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json',
    'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-11999/django__django-11999.traj.json',
    'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-12907/astropy__astropy-12907.traj.json',
  ];
  it.each(files)('labels every step of %s with a known rule', (f) => {
    const out = labelSteps(miniSwe11Steps(f), defaultAnalyzers());
    expect(out.length).toBeGreaterThan(10);
    expect(out.filter((o) => o.label.unknown)).toEqual([]);
    for (const { state } of out) expect(state.hash).toMatch(/^[0-9a-f]{32}$/);
  });
  it('mini-swe-agent astroid-1196: the git diff patch file re-read is V, the submit O', () => {
    const out = labelSteps(miniSwe11Steps(files[0] ?? ''), defaultAnalyzers());
    const diff = out.findIndex((o, i) => o.label.kind === 'housekeeping' && out[i + 1]?.label.file === 'patch.txt');
    expect(diff).toBeGreaterThan(0);
    expect(out[diff + 1]?.label).toMatchObject({ stage: 'V', rule: 5 });
    expect(out[out.length - 1]?.label).toMatchObject({ stage: 'O', kind: 'finish' });
  });
  it('the corpus directory is readable', () => {
    expect(readFileSync(`${CORPUS}SOURCES.md`, 'utf8')).toContain('SOURCES');
    expect(readJson<{ trajectory: unknown[] }>(MOTO).trajectory.length).toBe(23);
  });
});
