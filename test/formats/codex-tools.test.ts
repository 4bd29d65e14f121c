/**
 * Codex CLI's tool calls (as Harbor's ATIF export keeps their names and arguments) map onto shell, edit and think
 * actions instead of `other`. No public Codex ATIF run was found to copy (test/fixtures/README.md), so this checks
 * the mapping of single tool calls in the argument shapes Codex's tools declare: `exec_command {cmd}`,
 * `shell_command {command}`, `shell {command: argv}`, `apply_patch {input}`, `update_plan {explanation, plan}`.
 */
import { describe, expect, it } from 'vitest';
import { toolCallAction } from '../../src/formats/tool-actions.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('Codex tools', () => {
  it('exec_command, shell_command and shell with an argument vector are shell steps with their command line', () => {
    expect(toolCallAction('exec_command', { cmd: 'pytest -q tests/test_io.py', workdir: '/testbed' })).toEqual({ kind: 'shell', command: 'pytest -q tests/test_io.py' });
    expect(toolCallAction('shell_command', { command: 'git diff' })).toEqual({ kind: 'shell', command: 'git diff' });
    expect(toolCallAction('shell', { command: ['bash', '-lc', 'cd /testbed && ls'] })).toEqual({ kind: 'shell', command: 'cd /testbed && ls' });
    expect(toolCallAction('shell', { command: ['rg', '-n', 'def parse', 'src'] })).toEqual({ kind: 'shell', command: 'rg -n def parse src' });
    // As before: a plain string command, and a mini-swe-agent submission through any shell tool.
    expect(toolCallAction('bash', { command: 'ls' })).toEqual({ kind: 'shell', command: 'ls' });
    expect(toolCallAction('exec_command', { cmd: 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT' }).kind).toBe('finish');
  });

  it('apply_patch: an Update File is a str_replace of its first hunk, an Add File a create, no file named is other', () => {
    const update = patch(
      '*** Update File: src/io.py',
      '@@ def load(path):',
      '     with open(path) as f:',
      '-        return f.read()',
      '+        return f.read().strip()',
      '@@ def save(path, text):',
      '-    pass',
      '+    write(path, text)',
    );
    expect(toolCallAction('apply_patch', { input: update })).toEqual({
      kind: 'edit',
      op: 'str_replace',
      path: 'src/io.py',
      old: '    with open(path) as f:\n        return f.read()',
      new: '    with open(path) as f:\n        return f.read().strip()',
    });
    expect(toolCallAction('apply_patch', { input: patch('*** Add File: repro.py', '+import io', '+print(io.load("x"))') })).toEqual({
      kind: 'edit',
      op: 'create',
      path: 'repro.py',
      text: 'import io\nprint(io.load("x"))',
    });
    expect(toolCallAction('apply_patch', { input: patch('*** Delete File: old.py') })).toEqual({ kind: 'other', name: 'apply_patch' });
    expect(toolCallAction('apply_patch', { input: 'not a patch' })).toEqual({ kind: 'other', name: 'apply_patch' });
  });

  it('update_plan is a think step with its explanation', () => {
    expect(toolCallAction('update_plan', { explanation: 'reproduce first', plan: [{ step: 'write repro', status: 'in_progress' }] })).toEqual({ kind: 'think', text: 'reproduce first' });
  });
});
