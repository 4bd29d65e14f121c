import { describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { attemptFacts, classifyToolFailure, editVolume, patchChurn, patchLines, stepEditVolume } from '../../src/core/reliability/index.js';

const shell = (command: string, observation: string, exitCode?: number): Step => ({
  t: 0,
  tool: 'bash',
  action: { kind: 'shell', command },
  observation,
  ...(exitCode !== undefined ? { exitCode } : {}),
});
const editor = (observation: string): Step => ({
  t: 0,
  tool: 'str_replace_editor',
  action: { kind: 'edit', op: 'str_replace', path: 'x.py', old: 'a', new: 'b' },
  observation,
});

describe('agent-induced tool failure classifier (observations copied from the corpus)', () => {
  it('recognises the five agent-fault kinds', () => {
    expect(classifyToolFailure(shell('cd /workspace && ./run_tests.sh', './run_tests.sh: line 7: javac: command not found\n./run_tests.sh: line 10: java: command not found', 127))).toBe(
      'command_not_found',
    );
    expect(classifyToolFailure(editor('ERROR:\nParameter `old_str` is required for command: str_replace.'))).toBe('malformed_arguments');
    expect(classifyToolFailure(editor('ERROR:\nInvalid `path` parameter: /workspace/django__django__3.0/x.py. The path /workspace/django__django__3.0/x.py does not exist.'))).toBe('path_not_found');
    expect(
      classifyToolFailure(
        shell(
          'python tests/model_fields/test_field.py',
          "python: can't open file 'tests/model_fields/test_field.py': [Errno 2] No such file or directory\n[The command completed with exit code 2.]",
          2,
        ),
      ),
    ).toBe('path_not_found');
    expect(classifyToolFailure(shell('python -m pytest tests', 'The last command <command>python -m pytest tests</command> timed out and has been killed.', -1))).toBe('timeout');
    // SWE-agent 0.x's linter refused the edit (nus-apr/auto-code-rover, swe-agent-results/cost_2_3/django__django-12453.traj, step 3).
    const refused =
      "Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.\n\nERRORS:\n- F821 undefined name 'transaction'\n\nThis is how your edit would have looked if applied\n-------------------------------------------------\n[File: /django__django/django/db/backends/base/creation.py (294 lines total)]";
    expect(classifyToolFailure({ t: 0, tool: 'edit', action: { kind: 'edit', op: 'replace_lines', path: 'django/db/backends/base/creation.py', new: 'x' }, observation: refused })).toBe(
      'malformed_arguments',
    );
    expect(classifyToolFailure(shell('echo $(', "bash: -c: line 1: unexpected EOF while looking for matching `)'", 2))).toBe('shell_syntax');
  });
  it('does not count test assertion failures or successful output mentioning errors', () => {
    const pytestFail =
      '=================================== FAILURES ===================================\nE       AssertionError: assert 1 == 2\n========================= 1 failed, 3 passed in 0.12s =========================';
    expect(classifyToolFailure(shell('python -m pytest tests/test_x.py', pytestFail, 1))).toBeNull();
    expect(classifyToolFailure(shell('grep -n "does not exist" x.py', '123: raise self.DoesNotExist("%s matching query does not exist.")', 0))).toBeNull();
    expect(classifyToolFailure({ t: 0, tool: 'message', action: { kind: 'message', text: 'done' } })).toBeNull();
  });
});

describe('patch size, edit volume and churn', () => {
  it('counts +/- lines of a unified diff, not the file headers', () => {
    const diff = 'diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n+d\n';
    expect(patchLines(diff)).toBe(3);
    expect(patchLines(undefined)).toBe(0);
  });
  it('counts a removed line starting with -- and an added one starting with ++ inside a hunk (they look like file headers)', () => {
    // Synthetic: an RST underline `--------` removed (`---------` in the diff), a C `++i;` added (`+++i;`).
    const rst = 'diff --git a/docs/index.rst b/docs/index.rst\n--- a/docs/index.rst\n+++ b/docs/index.rst\n@@ -1,3 +1,3 @@\n Title\n---------\n+=========\n text';
    expect(patchLines(rst)).toBe(2);
    expect(patchChurn(patchLines(rst), 2)).toBe(0);
    const c = '--- a/x.c\n+++ b/x.c\n@@ -2 +2,2 @@\n-i += 1;\n+++i;\n+--j;\n\\ No newline at end of file\n';
    expect(patchLines(c)).toBe(3);
  });
  it('skips the file headers of a second file after a hunk, with or without a diff line before them', () => {
    const hunk = '@@ -1,2 +1,2 @@\n a\n-b\n+c\n';
    expect(patchLines(`--- a/x\n+++ b/x\n${hunk}--- a/y\n+++ b/y\n${hunk}`)).toBe(4);
    // A cut hunk (its header promises more lines than follow) ends at the next file's `diff` line.
    expect(patchLines(`diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,9 +1,9 @@\n-b\n+c\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n${hunk}`)).toBe(4);
  });
  it('measures editor edits and heredoc writes', () => {
    expect(stepEditVolume(editor(''))).toBe(2);
    // A refused edit changed nothing (corpus, OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl, instance 2, step 14).
    expect(stepEditVolume(editor('ERROR:\nNo replacement was performed. Multiple occurrences of old_str `return pattern_type;` in lines [317, 449]. Please ensure it is unique.'))).toBe(0);
    const heredoc = shell("cat <<'EOF' > reproduce.py\nimport astroid\nprint(1)\nEOF", '', 0);
    expect(stepEditVolume(heredoc)).toBe(2);
    expect(stepEditVolume(shell('cat <<EOF\nnot written to a file\nEOF', '', 0))).toBe(0);
    expect(editVolume([editor(''), heredoc])).toBe(4);
  });
  it('PCR = 1 − patch/volume clamped, 0 without edits', () => {
    expect(patchChurn(3, 12)).toBeCloseTo(0.75);
    expect(patchChurn(5, 0)).toBe(0);
    expect(patchChurn(20, 10)).toBe(0);
  });
  it('attemptFacts puts it together', () => {
    const f = attemptFacts([editor('ERROR:\nParameter `old_str` is required for command: str_replace.'), editor(''), shell('ls', 'a b', 0)], '--- a/x\n+++ b/x\n-a\n+b\n');
    // The refused edit changed no line: only the applied one counts toward the volume.
    expect(f).toMatchObject({ patchLines: 2, editVolume: 2, toolCalls: 3, toolFailures: 1 });
    expect(f.failuresByKind.malformed_arguments).toBe(1);
  });
});
