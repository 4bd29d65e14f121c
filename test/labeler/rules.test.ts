import { describe, expect, it } from 'vitest';
import { last, SRC_EDIT } from './helpers.js';

const stageRule = (l: { stage: string; rule: number }) => `${l.stage}${l.rule}`;

describe('rule 1: orchestration', () => {
  it.each([
    [{ kind: 'think', text: 'plan' }, 'think'],
    [{ kind: 'finish' }, 'finish'],
    [{ kind: 'message', text: 'done' }, 'message'],
    [{ kind: 'none' }, 'none'],
  ] as const)('%o is O', (action, kind) => {
    expect(last(action)).toMatchObject({ stage: 'O', rule: 1, kind });
  });
  it.each([
    'cp ./django/contrib/auth/validators.py ./django/contrib/auth/validators.py.backup',
    'cd /testbed && git diff -- astropy/modeling/separable.py > patch.txt',
    'rm new_test.py',
    'mkdir -p /tmp/scratch',
    'touch notes_tmp.txt',
    'git checkout -- astropy/modeling/separable.py',
    'git stash',
  ])('housekeeping: %s', (cmd) => {
    expect(last(cmd)).toMatchObject({ stage: 'O', rule: 1, sourceEdit: false });
  });
  it('mini-swe-agent submit is finish', () => {
    expect(last('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat patch.txt')).toMatchObject({ stage: 'O', kind: 'finish' });
  });
  it('a task-tracker tool is O', () => {
    expect(last({ tool: 'task_tracker', action: { kind: 'other', name: 'task_tracker' } })).toMatchObject({ stage: 'O', rule: 1 });
  });
});

describe('rule 2: test execution', () => {
  it.each([
    'cd /testbed && python -m pytest tests/auth_tests/test_validators.py::UsernameValidatorsTests -xvs',
    'pytest -q /testbed/tests/test_scheduler -q',
    'cd /testbed && python -m pytest ./tests/unittest_brain_builtin.py -xvs -k format 2>&1 | head -200',
    'cd /testbed && python tests/runtests.py file_storage',
    'python manage.py test auth_tests',
    'timeout 600 tox -e py38',
    'mvn -q test -Dtest=VersionTest',
    'go test ./...',
    'npm test',
    'cargo test',
    'make test',
    'poetry run pytest tests',
  ])('%s is V', (cmd) => {
    expect(last(cmd)).toMatchObject({ stage: 'V', rule: 2, kind: 'run_test' });
  });
  it('runs before any edit are still V', () => {
    expect(stageRule(last('python -m pytest tests/unittest_nodes.py -xvs -k "dict"'))).toBe('V2');
  });
});

describe('rule 3: source edits', () => {
  it('editor str_replace of a source file is I and sets sourceEdit', () => {
    expect(last(SRC_EDIT)).toMatchObject({ stage: 'I', rule: 3, kind: 'edit', file: 'moto/scheduler/models.py', sourceEdit: true, changesFile: true });
  });
  it.each([
    "cd /testbed && sed -i '957s/except (IndexError, KeyError):/except (IndexError, KeyError, TypeError, ValueError):/' astroid/brain/brain_builtin_inference.py",
    "cat > ./django/contrib/auth/validators.py << 'EOF'\nimport re\nEOF",
    'git apply fix.patch',
    'patch -p1 < fix.diff',
  ])('shell write %s is I', (cmd) => {
    expect(last(cmd)).toMatchObject({ stage: 'I', rule: 3, sourceEdit: true });
  });
  it('sed -i records the edited line', () => {
    expect(last("sed -i '957s/a/b/' astroid/brain/brain_builtin_inference.py")).toMatchObject({ file: 'astroid/brain/brain_builtin_inference.py', range: [957, 957] });
  });
  it('creating a new module inside the source tree is I', () => {
    expect(last({ kind: 'edit', op: 'create', path: '/testbed/moto/scheduler/utils.py', text: 'X = 1\n' })).toMatchObject({ stage: 'I', rule: 3, kind: 'create' });
  });
  it('backup plus edit on one line is an edit', () => {
    expect(last("cp ./a/b.py ./a/b.py.bak && sed -i 's/x/y/' ./a/b.py")).toMatchObject({ stage: 'I', rule: 3 });
  });
});

describe('rule 4: retrieval', () => {
  it.each([
    'grep -R "CreationDate" -n /testbed/tests | cat',
    'find . -type f -name "*.py" | grep -i separable | head -20',
    'ls -la /testbed/',
    'git log --oneline -5',
    'cd /testbed && git show HEAD',
    'pip show django',
    'wc -l astropy/io/ascii/rst.py',
    { kind: 'search', query: 'Version.java', path: 'src' },
    { kind: 'list', path: '/testbed' },
    { kind: 'view', path: '/testbed/moto/scheduler' },
  ] as const)('%o is E', (input) => {
    expect(last(input as never)).toMatchObject({ stage: 'E', rule: 4 });
  });
  it('grep after an edit stays E', () => {
    expect(last(SRC_EDIT, 'grep -rn "unix_time" /testbed/moto/core')).toMatchObject({ stage: 'E', rule: 4 });
  });
  it('grep of the edited file is V', () => {
    expect(last(SRC_EDIT, 'grep -n "def " /testbed/moto/scheduler/models.py')).toMatchObject({ stage: 'V', rule: 4 });
    expect(last(SRC_EDIT, { kind: 'search', query: 'last_modification_date', path: '/testbed/moto/scheduler/models.py' })).toMatchObject({ stage: 'V', rule: 4 });
  });
});

describe('rule 5: reads', () => {
  it.each([
    "sed -n '22,28p' astroid/nodes/node_classes.py",
    'cat ./django/core/files/temp.py',
    'head -50 astroid/nodes/node_classes.py',
    'tail -n 20 astropy/io/ascii/ui.py',
    'nl -ba astropy/io/ascii/rst.py',
    { kind: 'view', path: '/testbed/moto/scheduler/models.py' },
  ] as const)('%o before edits is E', (input) => {
    expect(last(input as never)).toMatchObject({ stage: 'E', rule: 5, kind: 'read' });
  });
  it('a read of a modified file is V', () => {
    expect(last(SRC_EDIT, { kind: 'view', path: '/testbed/moto/scheduler/models.py', range: [180, 200] })).toMatchObject({ stage: 'V', rule: 5 });
    expect(last(SRC_EDIT, "sed -n '180,200p' moto/scheduler/models.py")).toMatchObject({ stage: 'V', rule: 5, range: [180, 200] });
  });
  it('an untouched test file read after an edit is E', () => {
    expect(last(SRC_EDIT, 'cat tests/test_scheduler/test_scheduler.py')).toMatchObject({ stage: 'E', rule: 5 });
  });
  it('reading its own patch file is V', () => {
    expect(last('cd /testbed && git diff -- django/db/models/fields/__init__.py > patch.txt', 'cat patch.txt')).toMatchObject({ stage: 'V', rule: 5 });
  });
});

describe('rule 6: runs', () => {
  it('a reproduction script run is E before the first source edit and V after', () => {
    const create = { kind: 'edit', op: 'create', path: '/testbed/reproduce_issue.py', text: 'print(1)\n' } as const;
    expect(last(create, 'python reproduce_issue.py')).toMatchObject({ stage: 'E', rule: 6, kind: 'run_script', file: 'reproduce_issue.py' });
    expect(last(create, SRC_EDIT, 'python reproduce_issue.py')).toMatchObject({ stage: 'V', rule: 6 });
  });
  it.each([
    'cd /testbed && python3 -c "print(hasattr(None, \'format\'))"',
    "python - << 'PY'\nimport moto.core.utils as u\nprint(u.unix_time())\nPY",
    'cd /testbed && git diff astroid/brain/brain_builtin_inference.py',
    'git status',
    'javac src/main/java/Version.java',
  ])('%s flips E -> V', (cmd) => {
    expect(last(cmd)).toMatchObject({ stage: 'E', rule: 6 });
    expect(last(SRC_EDIT, cmd)).toMatchObject({ stage: 'V', rule: 6 });
  });
  it('code cells are runs', () => {
    expect(last({ kind: 'code', language: 'python', code: 'print(1)' })).toMatchObject({ stage: 'E', rule: 6 });
  });
  it.each(['pip install lazy-object-proxy', 'cd /testbed && pip install pytest -q', 'python -m pip install -e .', 'apt-get install -y gcc'])('install %s is O', (cmd) => {
    expect(last(cmd)).toMatchObject({ stage: 'O', rule: 6, kind: 'install' });
  });
});

describe('rule 7: non-source edits', () => {
  it('creating reproduce.py is E before any source edit, V after', () => {
    const create = { kind: 'edit', op: 'create', path: '/testbed/reproduce.py', text: 'import x\n' } as const;
    expect(last(create)).toMatchObject({ stage: 'E', rule: 7, kind: 'create', sourceEdit: false });
    expect(last(SRC_EDIT, create)).toMatchObject({ stage: 'V', rule: 7 });
  });
  it('a heredoc reproduction script is rule 7', () => {
    expect(last("cat <<'EOF' > reproduce_issue.py\nfrom astropy.modeling import models as m\nEOF")).toMatchObject({ stage: 'E', rule: 7, file: 'reproduce_issue.py' });
  });
  it('appending a test to a test file is rule 7', () => {
    expect(last(SRC_EDIT, "cat <<'EOF' >> astropy/modeling/tests/test_separable.py\ndef test_x():\n    pass\nEOF")).toMatchObject({ stage: 'V', rule: 7 });
  });
  it('a source edit does not happen through a scratch file', () => {
    const out = last(
      { kind: 'edit', op: 'create', path: '/testbed/reproduce.py', text: '' },
      { kind: 'edit', op: 'str_replace', path: '/testbed/reproduce.py', old: 'a', new: 'b' },
      'python reproduce.py',
    );
    expect(out.stage).toBe('E');
  });
});

describe('fallback', () => {
  it('unknown commands are E before and V after an edit, flagged unknown', () => {
    expect(last('frobnicate --all')).toMatchObject({ stage: 'E', rule: 0, unknown: true });
    expect(last(SRC_EDIT, 'frobnicate --all')).toMatchObject({ stage: 'V', rule: 0, unknown: true });
  });
});

describe('compound lines and direct test-file runs', () => {
  it('running an existing test module directly is a test run', () => {
    expect(last('python tests/test_scheduler/test_scheduler.py')).toMatchObject({ stage: 'V', rule: 2 });
  });
  it('a test run anywhere in the line wins over an install', () => {
    expect(last('pip install pytest -q && python -m pytest tests/test_x.py')).toMatchObject({ stage: 'V', rule: 2, file: 'tests/test_x.py' });
  });
  it('a leading echo banner is skipped', () => {
    expect(last('echo "=== grep ===" && grep -n "class Dict" astroid/nodes/node_classes.py')).toMatchObject({ stage: 'E', rule: 4 });
  });
});
