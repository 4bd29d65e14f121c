/**
 * Mislabels found by reading the labeler's output over the whole corpus, each
 * pinned with the real command (copied verbatim, or loaded from the named file).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseInstancesText } from '../../src/formats/index.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { isTestPath } from '../../src/core/labeler/file-roles.js';
import { rewriteRoots, toRepoPath } from '../../src/core/labeler/paths.js';
import type { Step } from '../../src/core/types.js';
import { CORPUS } from './corpus.js';
import { last, run, SRC_EDIT } from './helpers.js';

function corpusSteps(rel: string, instance = 0): Step[] {
  const r = parseInstancesText(readFileSync(CORPUS + rel, 'utf8'), 'auto', rel);
  if (!r.ok) throw new Error(`cannot parse ${rel}`);
  const p = r.value[instance];
  if (!p) throw new Error(`no instance ${instance} in ${rel}`);
  return p.steps;
}

function labelsOf(rel: string, instance = 0) {
  return labelSteps(corpusSteps(rel, instance), defaultAnalyzers()).map((o) => o.label);
}

describe('source edits made by Python scripts (rule 3)', () => {
  // SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-12907/astropy__astropy-12907.traj.json, step 15:
  // `cat > fix_cstack.py << 'EOF' ... open('astropy/modeling/separable.py', 'w') ... EOF\npython3 fix_cstack.py` was E (create
  // of a scratch file), so the trajectory never left E although this step applied the fix.
  const rel = 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/astropy__astropy-12907/astropy__astropy-12907.traj.json';
  it('a heredoc script run on the same line is an edit of the file it rewrites', () => {
    const labels = labelsOf(rel);
    expect(labels[15]).toMatchObject({ stage: 'I', rule: 3, kind: 'edit', file: 'astropy/modeling/separable.py', sourceEdit: true });
    // step 16: cd /testbed && cat astropy/modeling/separable.py | grep -n "cright\[-right.shape" -B2 -A2
    expect(labels[16]).toMatchObject({ stage: 'V', rule: 5 });
  });
  it('running a fix script written earlier is the edit; writing it is not', () => {
    // SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-13401/...traj.json steps 44-45
    const labels = labelsOf('SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-13401/django__django-13401.traj.json');
    expect(labels[44]).toMatchObject({ stage: 'V', rule: 7, kind: 'create', file: 'fix_field_methods.py' });
    expect(labels[45]).toMatchObject({ stage: 'I', rule: 3, file: 'django/db/models/fields/__init__.py' }); // cd /testbed && python fix_field_methods.py
  });
  it('a script writing scratch output is still a run', () => {
    expect(last("python - << 'PY'\nopen('out.txt', 'w').write('x')\nPY")).toMatchObject({ stage: 'E', rule: 6 });
  });
});

describe('compound lines', () => {
  const reproduce = { kind: 'edit', op: 'create', path: '/testbed/reproduce_issue.py', text: 'print(1)\n' } as const;
  it('set-up before the real command does not decide the label', () => {
    // SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-10914/...: was O install
    expect(last(reproduce, 'pip install pytz -q && python reproduce_issue.py')).toMatchObject({ stage: 'E', rule: 6, kind: 'run_script' });
    // multi-swe-bench .../20240825_SWE-agent_gpt-4o-2024-05-13/trajs/fasterxml__jackson-core-1142.traj: was O housekeeping
    const script = { kind: 'edit', op: 'create', path: 'run_tests.sh', text: '' } as const;
    expect(last(SRC_EDIT, script, 'chmod +x run_tests.sh && ./run_tests.sh')).toMatchObject({ stage: 'V', rule: 6, file: 'run_tests.sh' });
    // OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl, instance 2, step 32
    expect(last(SRC_EDIT, 'rm -rf /workspace/ponylang__ponyc__0.1/build && cd /workspace/ponylang__ponyc__0.1 && make')).toMatchObject({ stage: 'V', rule: 6 });
    expect(last('cp astroid/nodes/node_classes.py astroid/nodes/node_classes.py.backup2 && python apply_fix_v2.py')).toMatchObject({ kind: 'run_script' });
  });
  it('a set-up-only line stays O', () => {
    expect(last('sudo mkdir -p /app && sudo chmod 777 /app')).toMatchObject({ stage: 'O', rule: 1 });
  });
  it('rewrite through a temp file and mv is a source edit', () => {
    // SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-10914/...traj.json step 32: was O housekeeping
    const cmd =
      "cp ./django/conf/global_settings.py ./django/conf/global_settings.py.backup && cat ./django/conf/global_settings.py | sed 's/FILE_UPLOAD_PERMISSIONS = None/FILE_UPLOAD_PERMISSIONS = 0o644/' > ./django/conf/global_settings.py.new && mv ./django/conf/global_settings.py.new ./django/conf/global_settings.py";
    const out = run([cmd, 'grep -n "FILE_UPLOAD_PERMISSIONS" ./django/conf/global_settings.py']);
    expect(out[0]?.label).toMatchObject({ stage: 'I', rule: 3, sourceEdit: true });
    expect(out[1]?.label).toMatchObject({ stage: 'V', rule: 4 });
  });
  it('head/cat/tail into a temp file then mv over the source is an edit', () => {
    // SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1866/...traj.json step 55: was V read
    const cmd =
      '# Create a new file with the fixed function\nhead -926 ./astroid/brain/brain_builtin_inference.py > /tmp/new_file.py\ncat /tmp/new_function.py >> /tmp/new_file.py\ntail -n +962 ./astroid/brain/brain_builtin_inference.py >> /tmp/new_file.py\nmv /tmp/new_file.py ./astroid/brain/brain_builtin_inference.py';
    expect(last(cmd)).toMatchObject({ stage: 'I', rule: 3, file: 'astroid/brain/brain_builtin_inference.py' });
  });
  it('moving a scratch file is housekeeping', () => {
    expect(last('mv reproduce_old.py reproduce.py')).toMatchObject({ stage: 'O', rule: 1 });
  });
  it('a write in one command of a line counts in the history even when a test run labels the line', () => {
    const out = run(["sed -i 's/a/b/' moto/scheduler/models.py && python -m pytest tests/test_scheduler -q", 'python reproduce_issue.py']);
    expect(out[0]?.label).toMatchObject({ stage: 'V', rule: 2 });
    expect(out[1]?.label).toMatchObject({ stage: 'V', rule: 6 });
  });
  it('a read piped into sed -n keeps the line range', () => {
    // gruckion__mini-swe-agent/.../django__django-11999/django__django-11999.traj.json step 17
    expect(last("nl -ba django/db/models/fields/__init__.py | sed -n '760,775p'")).toMatchObject({ kind: 'read', range: [760, 775] });
  });
});

describe('undo, prose, directories', () => {
  it('restoring a source file from its backup is an undo (rule 1), like git checkout -- f', () => {
    // SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev_rerun/pylint-dev__astroid-1196/...traj.json step 44
    expect(last('cp astroid/nodes/node_classes.py.backup astroid/nodes/node_classes.py')).toMatchObject({ stage: 'O', rule: 1, kind: 'housekeeping', changesFile: true, sourceEdit: false });
  });
  it('model prose run through bash is a message (O), not an unknown command', () => {
    // multi-swe-bench .../20240825_SWE-agent_doubao-pro-128k/trajs/fasterxml__jackson-databind-4486.traj step 0
    const prose =
      "I'll also check if there are any other configuration settings or dependencies that could be influencing the behavior. Additionally, I'll look for any potential side effects of the proposed fix.\n";
    expect(last(prose)).toMatchObject({ stage: 'O', rule: 1, unknown: false });
  });
  it('viewing the repository root with a range is a listing', () => {
    // christsakm__Trajectories/GOOD_EXAMPLES/facebookresearch__hydra-1915/trace_01_gpt-5-2025-08-07/...traj step 10
    expect(last({ kind: 'view', path: '/testbed', range: [1, 200] })).toMatchObject({ stage: 'E', rule: 4, kind: 'list' });
  });
  it('a fixture app directory created by the agent is test code', () => {
    // gsmoon97__swe-agent-eval/.../django__django-13401/...json step 6: create /workspace/django__django__3.2/test_app/__init__.py was I
    expect(isTestPath('test_app/__init__.py')).toBe(true);
    expect(isTestPath('django/contrib/contenttypes/models.py')).toBe(false);
  });
});

describe('OpenHands paths and agent skills', () => {
  it('/workspace/<file> is not a repository root', () => {
    const ctx = { root: '/workspace/astropy__astropy__4.3', dir: '.' };
    expect(toRepoPath('/workspace/reproduce_issue.py', ctx)).toBe('/workspace/reproduce_issue.py');
    expect(toRepoPath('/workspace/reproduce_issue.py', { dir: '.' })).toBe('/workspace/reproduce_issue.py');
    expect(toRepoPath('/workspace/astropy__astropy__4.3', { dir: '.' })).toBe('.');
    expect(rewriteRoots('python /workspace/reproduce_issue.py', '/workspace/astropy__astropy__4.3')).toBe('python /workspace/reproduce_issue.py');
  });
  it('the scratch script next to the repo is a scratch file, not the root', () => {
    // gsmoon97__swe-agent-eval/.../astropy__astropy-12907/Claude-3.5-Sonnet(Oct)-1743405761.3279748.json steps 1-2
    const out = run(
      [{ kind: 'edit', op: 'create', path: '/workspace/reproduce_issue.py', text: 'print(1)\n' }, 'python /workspace/reproduce_issue.py'].map((a) =>
        typeof a === 'string' ? { tool: 'execute_bash', action: { kind: 'shell', command: a } } : { tool: 'str_replace_editor', action: a },
      ) as never,
    );
    expect(out[0]?.label).toMatchObject({ stage: 'E', rule: 7, file: '/workspace/reproduce_issue.py' });
    expect(out[1]?.label).toMatchObject({ stage: 'E', rule: 6, file: '/workspace/reproduce_issue.py' });
  });
  it('IPython agent skills are views and edits', () => {
    // OpenHands__OpenHands/tests/unit/resolver/mock_output/output.jsonl, instance 1
    const labels = labelsOf('OpenHands__OpenHands/tests/unit/resolver/mock_output/output.jsonl', 1);
    expect(labels[1]).toMatchObject({ stage: 'E', rule: 5, kind: 'read' }); // open_file('/workspace/src/App.css')
    expect(labels[2]).toMatchObject({ stage: 'I', rule: 3, kind: 'edit' }); // edit_file_by_replace('/workspace/src/App.css', ...)
  });
});
