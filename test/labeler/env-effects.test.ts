/**
 * What the repeat detectors take as a change between two tries (state `changesEnv`, beside the labelled file
 * write of `changesFile`) and as not the same action (state `variant`): the labeler's and state builder's part.
 */
import { describe, expect, it } from 'vitest';
import { run, type StepInput } from './helpers.js';

const env = (...inputs: StepInput[]) => run(inputs).map((r) => r.state.changesEnv === true);
/** Whether each step changed anything: its labelled file write or something beyond it. */
const changes = (...inputs: StepInput[]) => run(inputs).map((r) => r.state.changesFile || r.state.changesEnv === true);
/** `true` for each of `inputs`: what a list of commands that all change something is expected to give. */
const allTrue = (inputs: readonly unknown[]): boolean[] => inputs.map(() => true);

describe('changes beyond the labelled write (changesEnv)', () => {
  it('package installs, alone or before a run (the README showcase: pip install between two runs of a script)', () => {
    const installs = ['pip install asgiref', 'python -m pip install -e .', 'pip install x && python t.py', 'conda install numpy', 'npm install', 'apt-get install -y jq'];
    expect(env(...installs)).toEqual(allTrue(installs));
    expect(env('pip show django', 'pip list', 'pip freeze')).toEqual([false, false, false]);
  });

  it('a write by a second command of the line, a run writing its log, a touch, a deletion, a new directory', () => {
    // `touch` of a new package file is labelled as its creation (changesFile); the rest are changes beyond the label.
    expect(changes('touch pkg/__init__.py', 'touch notes.txt')).toEqual([true, true]);
    const writes = ["sed -i 's/a/b/' src/x.py && python -m pytest tests", 'pytest tests > out.txt', 'touch notes.txt', 'rm -rf build', 'mkdir -p build/release', 'chmod +x run.sh'];
    expect(env(...writes)).toEqual(allTrue(writes));
    // The labelled write itself is changesFile, not changesEnv; output thrown away is no write.
    expect(env("cat > t.py << 'EOF'\nprint(1)\nEOF", "sed -i 's/a/b/' src/x.py", 'pytest tests 2>&1 > /dev/null')).toEqual([false, false, false]);
  });

  it('variables, sourced files and a move to another directory for the commands after', () => {
    expect(env('export DJANGO_SETTINGS_MODULE=settings', 'source venv/bin/activate', 'cd src', 'unset PYTHONPATH && python t.py')).toEqual([true, true, true, true]);
    expect(env('cd /testbed && python t.py', 'DEBUG=1 python t.py')).toEqual([false, false]);
  });

  it('checkouts, stashes and resets that the label does not carry (a test run on the same line)', () => {
    expect(env('git stash && python -m pytest tests', 'git checkout -- src/x.py && pytest tests')).toEqual([true, true]);
    expect(env('git diff', 'git log --oneline', 'git status')).toEqual([false, false, false]);
  });

  it('builds that write artifacts, and formatters that rewrite files', () => {
    const builds = ['make', 'mvn -q package', 'python setup.py build_ext --inplace', 'npm run build', 'gcc -o prog prog.c', 'black src', 'ruff check --fix src'];
    expect(env(...builds)).toEqual(allTrue(builds));
    expect(env('make test', 'mvn test', 'black --check src', 'ruff check src', 'tsc --noEmit')).toEqual([false, false, false, false, false]);
  });

  it('reads, searches and runs change nothing', () => {
    expect(env('cat src/x.py', 'grep -rn foo src', 'python t.py', 'ls -la', { kind: 'view', path: '/testbed/src/x.py' })).toEqual([false, false, false, false, false]);
  });

  it('a line that only sets a variable is set-up, not a turn without an action', () => {
    expect(run(['export X=1'])[0]!.label).toMatchObject({ stage: 'O', kind: 'housekeeping' });
  });

  it("CodeR's bare succeed / fail end a sub-agent's part: a finish, not an unknown command", () => {
    expect(run(['succeed', 'fail']).map((r) => [r.label.stage, r.label.kind, r.label.unknown])).toEqual([
      ['O', 'finish', false],
      ['O', 'finish', false],
    ]);
    expect(run(['succeed --now'])[0]!.label.kind).not.toBe('finish');
  });
});

describe('variants: the same hash, not the same action', () => {
  const variant = (...inputs: StepInput[]) => run(inputs).map((r) => r.state.variant === true);
  const edit = (text: string): StepInput => ({ kind: 'edit', op: 'replace_lines', path: '/testbed/a.py', range: [5, 5], new: text });

  it('an edit re-submitted with other indentation (the hash collapses whitespace); the identical one is a repeat', () => {
    const states = run([edit('x = 1'), edit('    x = 1'), edit('    x = 1')]).map((r) => r.state);
    expect(states[0]!.hash).toBe(states[1]!.hash);
    expect(states.map((s) => s.variant === true)).toEqual([false, true, false]);
  });

  it('the same command run in another directory (the hash drops a leading cd)', () => {
    expect(variant('cd /testbed/src && ls -l', 'cd /testbed/src/pkg && ls -l', 'cd /testbed/src/pkg && ls -l')).toEqual([false, true, false]);
    expect(variant('cd /testbed && python t.py', 'python t.py')).toEqual([false, false]);
  });

  it('a file-name search and a content search for the same text (one search hash)', () => {
    const find = { t: 0, tool: 'find_file', action: { kind: 'search', query: 'RidgeClassifierCV' } } as const;
    const grep = { t: 1, tool: 'search_dir', action: { kind: 'search', query: 'RidgeClassifierCV' } } as const;
    const states = run([find, grep]).map((r) => r.state);
    expect(states[0]!.hash).toBe(states[1]!.hash);
    expect(states[1]!.variant).toBe(true);
  });
});
