import { describe, expect, it } from 'vitest';
import { createShellAnalyzer } from '../../src/syntax/index.js';
import { MAX_PARSE_CHARS } from '../../src/syntax/shell-analyzer.js';

const shell = createShellAnalyzer();
const names = (cmd: string) => shell.parse(cmd).commands.map((c) => c.name);

describe('ShellAnalyzer', () => {
  it('splits && lists and records the leading cd (corpus command)', () => {
    const p = shell.parse('cd /testbed && python -m pytest tests/auth_tests/test_validators.py::UsernameValidatorsTests -xvs');
    expect(p.ok).toBe(true);
    expect(p.cd).toBe('/testbed');
    expect(p.commands).toHaveLength(1);
    expect(p.commands[0]).toMatchObject({ name: 'python', args: ['-m', 'pytest', 'tests/auth_tests/test_validators.py::UsernameValidatorsTests', '-xvs'], pipelineIndex: 0 });
  });

  it('numbers pipeline stages and drops 2>&1 and /dev/null redirections', () => {
    const p = shell.parse('find . -name "*.py" -type f -exec grep -l "DictUnpack\\|\\\\*\\\\*" {} \\; 2>/dev/null | grep -i test | head -10');
    expect(p.commands.map((c) => [c.name, c.pipelineIndex])).toEqual([
      ['find', 0],
      ['grep', 1],
      ['head', 2],
    ]);
    expect(p.commands[0]?.writes).toEqual([]);
    expect(p.commands[0]?.args).toContain(';');
    const q = shell.parse('cd /testbed && python test_integration.py 2>&1');
    expect(q.commands[0]?.writes).toEqual([]);
  });

  it('splits ; lists, subshells and || lists', () => {
    expect(names("sed -n '22,28p' a.py; grep -n foo b.py")).toEqual(['sed', 'grep']);
    expect(names('(cd astropy && ls) || echo "no dir"')).toEqual(['ls', 'echo']);
  });

  it('skips wrappers and env assignments', () => {
    expect(names('cd /testbed && PYTHONPATH=/testbed python -c "print(1)"')).toEqual(['python']);
    expect(names('export DJANGO_SETTINGS_MODULE=x; source venv/bin/activate; timeout 60 python -m pytest -q')).toEqual(['python']);
    expect(names('time nohup env A=1 sudo -u me timeout -s KILL 5 pytest')).toEqual(['pytest']);
    expect(shell.parse('timeout 10 pytest -x').commands[0]?.args).toEqual(['-x']);
  });

  it('collects file redirections', () => {
    const p = shell.parse('cd /testbed && git diff -- django/db/models/fields/__init__.py > patch.txt');
    expect(p.commands[0]).toMatchObject({ name: 'git', writes: ['patch.txt'] });
    expect(shell.parse('python x.py &> out.log').commands[0]?.writes).toEqual(['out.log']);
    expect(shell.parse('echo hi >> notes.md 2> err.txt').commands[0]?.writes).toEqual(['notes.md', 'err.txt']);
  });

  it('collects heredoc targets in both orders', () => {
    const a = shell.parse("cat <<'EOF' > reproduce_issue.py\nimport os\nprint(os.getcwd())\nEOF");
    expect(a.commands[0]).toMatchObject({ name: 'cat', writes: ['reproduce_issue.py'], heredoc: true });
    const b = shell.parse("cat > /testbed/reproduce_issue.py << 'EOF'\nimport astroid\nEOF\npython /testbed/reproduce_issue.py");
    expect(b.commands.map((c) => [c.name, c.writes, c.heredoc])).toEqual([
      ['cat', ['/testbed/reproduce_issue.py'], true],
      ['python', [], false],
    ]);
    const c = shell.parse("python - << 'PY'\nimport inspect\nPY");
    expect(c.commands[0]).toMatchObject({ name: 'python', args: ['-'], writes: [], heredoc: true });
  });

  it('reads the commands after a heredoc start on the same line (tree-sitter nests them in the heredoc redirect)', () => {
    // Excerpt of a real step: LiveSWE-Agent gpt-5-mini, django__django-14631 t=5 (the body cut to 3 of its lines).
    const real = shell.parse(
      "cat <<'PY' > /tmp/modify_forms_boundfield.py && python /tmp/modify_forms_boundfield.py || echo 'modify script failed'\nimport io,sys\nfrom pathlib import Path\nforms_path = Path('django/forms/forms.py')\nPY",
    );
    expect(real.commands.map((c) => [c.name, c.args, c.writes, c.heredoc, c.pipelineIndex])).toEqual([
      ['cat', [], ['/tmp/modify_forms_boundfield.py'], true, 0],
      ['python', ['/tmp/modify_forms_boundfield.py'], [], false, 0],
      ['echo', ['modify script failed'], [], false, 0],
    ]);
    const stages = (cmd: string) => shell.parse(cmd).commands.map((c) => [c.name, c.pipelineIndex, c.writes]);
    expect(stages('cat <<EOF | python3 && echo ok\nprint(1)\nEOF')).toEqual([
      ['cat', 0, []],
      ['python3', 1, []],
      ['echo', 0, []],
    ]);
    expect(stages('cat <<EOF | python3 | tail -3 > out.txt\nx\nEOF')).toEqual([
      ['cat', 0, []],
      ['python3', 1, []],
      ['tail', 2, ['out.txt']],
    ]);
    expect(stages('cat > f.py <<EOF && python f.py 2>&1 | tail\nx\nEOF')).toEqual([
      ['cat', 0, ['f.py']],
      ['python', 0, []],
      ['tail', 1, []],
    ]);
    // `2>&1 | tail -20` comes out as one redirect holding an ERROR node: no write of `-20`.
    expect(stages('python3 - <<EOF 2>&1 | tail -20\nprint(1)\nEOF')).toEqual([['python3', 0, []]]);
    expect(stages('cat <<EOF > f.py; python f.py\nx\nEOF')[0]).toEqual(['cat', 0, ['f.py']]);
  });

  it('unquotes words but keeps their content', () => {
    const p = shell.parse(`grep -n "def \\"x\\"" 'a b.py' c\\ d.py`);
    expect(p.commands[0]?.args).toEqual(['-n', 'def "x"', 'a b.py', 'c d.py']);
  });

  it('reports a syntax error with ok=false and does not throw', () => {
    const p = shell.parse('echo "unterminated');
    expect(p.ok).toBe(false);
    expect(() => shell.parse('if then fi ((( <<<')).not.toThrow();
    expect(shell.parse('').commands).toEqual([]);
  });

  it('caches parses', () => {
    const cmd = 'ls -la /testbed/';
    expect(shell.parse(cmd)).toBe(shell.parse(cmd));
  });
});

/**
 * F2/F4: a 1 MB command went whole to tree-sitter (seconds of the event loop) and every parse was cached by
 * count alone (150 distinct 1 MB commands kept 144 MB). A command is now analysed by its first
 * MAX_PARSE_CHARS characters (cut at a line end; ok=false), long ones are not cached, and the cache is
 * bounded by bytes.
 */
describe('ShellAnalyzer bounds', () => {
  const lines = (n: number): string => Array.from({ length: n }, (_, i) => `grep -rn "needle ${i}" src/${i}`).join('\n');

  it('parses only the first MAX_PARSE_CHARS characters of a long command, cut at a line end', () => {
    const shell = createShellAnalyzer();
    const big = lines(40_000);
    expect(big.length).toBeGreaterThan(1_000_000);
    const p = shell.parse(big);
    expect(p.ok).toBe(false);
    const kept = big.slice(0, big.lastIndexOf('\n', MAX_PARSE_CHARS)).split('\n').length;
    expect(p.commands).toHaveLength(kept);
    expect(p.commands.at(-1)).toMatchObject({ name: 'grep', args: ['-rn', `needle ${kept - 1}`, `src/${kept - 1}`] });
    expect(shell.cacheStats().entries).toBe(0);
  });

  it('keeps the cache within its byte budget', () => {
    const shell = createShellAnalyzer({ cacheBytes: 256 * 1024 });
    for (let i = 0; i < 200; i++) shell.parse(`${lines(40)} # ${i}`);
    const stats = shell.cacheStats();
    expect(stats.bytes).toBeLessThanOrEqual(256 * 1024);
    expect(stats.entries).toBeGreaterThan(0);
    expect(stats.entries).toBeLessThan(200);
  });
});
