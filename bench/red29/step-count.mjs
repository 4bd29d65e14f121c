// Does any step pattern cost more per step the longer the session? Scores N steps of one pattern (after a few setup
// steps) through a fresh scorer (the bundled forecast computing every evidence value, a real PTA), at N and 2N, and
// prints the CPU time of each and the ratio (2 = linear in the step count). node step-count.mjs DIST [N] [ONLY]
const [dist, nArg = '1000', only] = process.argv.slice(2);
const N = Number(nArg);
const { chooseReference } = await import(`${dist}/src/cli/references.js`);
const { selectModel } = await import(`${dist}/src/core/forecast/model.js`);
const { createScorer } = await import(`${dist}/src/core/scorer.js`);
const { bundledForecastFile } = await import(`${dist}/src/package-files.js`);
const { readForecastFile } = await import(`${dist}/src/settings-files.js`);
const { defaultAnalyzers } = await import(`${dist}/src/syntax/index.js`);
const root = new URL('../../', import.meta.url).pathname;
const reference = await chooseReference(`${root}data/example/pylint-dev__astroid-1196.json`);
const analyzers = defaultAnalyzers();
const forecast = selectModel(await readForecastFile(bundledForecastFile()), undefined, undefined);
const sh = (command, observation = 'ok', extra = {}) => ({ tool: 'bash', action: { kind: 'shell', command }, observation, ...extra });
const ed = (a, observation = 'ok') => ({ tool: 'str_replace_editor', action: { kind: 'edit', ...a }, observation });
const pyLines = (n) => Array.from({ length: n }, (_, i) => (i % 10 === 0 ? `def f${i}(x):` : `    x = x + ${i}`)).join('\n');
const big = pyLines(3000); // ~50 KB
const tb = (i) => `Traceback (most recent call last):\n  File "/repo/src/m${i}.py", line ${i}, in f${i}\n    g()\nValueError: ${i}\n`;
const diff = (i) => `diff --git a/src/m${i % 50}.py b/src/m${i % 50}.py\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n`;
// pattern: [setup steps, step i]
const PATTERNS = {
  ls: [[], () => sh('ls')],
  replaceLines: [[ed({ op: 'create', path: 'src/a.py', text: big })], (i) => ed({ op: 'replace_lines', path: 'src/a.py', range: [1 + (i % 2000), 1 + (i % 2000)], new: `    y = ${i}` })],
  insertTop: [[ed({ op: 'create', path: 'src/a.py', text: big })], (i) => ed({ op: 'insert', path: 'src/a.py', range: [0, 0], new: `# ${i}` })],
  strReplace: [[ed({ op: 'create', path: 'src/a.py', text: `${big}\nMARK0` })], (i) => ed({ op: 'str_replace', path: 'src/a.py', old: `MARK${i}`, new: `MARK${i + 1}` })],
  strReplaceMiss: [[ed({ op: 'create', path: 'src/a.py', text: big })], (i) => ed({ op: 'str_replace', path: 'src/a.py', old: `NOPE${i}`, new: 'x' })],
  createMany: [[], (i) => ed({ op: 'create', path: `src/m${i}.py`, text: pyLines(20) })],
  viewWindows: [
    [ed({ op: 'create', path: 'src/a.py', text: big })],
    (i) => ({
      tool: 'str_replace_editor',
      action: { kind: 'view', path: 'src/a.py', range: [1 + (i % 2900), 10 + (i % 2900)] },
      observation: Array.from({ length: 10 }, (_, k) => `${1 + (i % 2900) + k}\t    x = ${k}`).join('\n'),
    }),
  ],
  catWhole: [[], (i) => sh('cat src/a.py', i % 2 ? big : `${big}\n# ${i}`)],
  sedRange: [
    [ed({ op: 'create', path: 'src/a.py', text: big })],
    (i) => sh(`sed -n '${1 + (i % 2900)},${20 + (i % 2900)}p' src/a.py`, Array.from({ length: 20 }, (_, k) => `    x = ${k}`).join('\n')),
  ],
  pytest: [[], (i) => sh(`python -m pytest tests/test_${i % 30}.py`, `${'.'.repeat(40)}F\nFAILED tests/test_${i}.py::t${i} - AssertionError\n1 failed, ${i} passed in 0.1s`, { exitCode: 1 })],
  traceback: [[], (i) => sh(`python reproduce${i % 60}.py`, tb(i), { exitCode: 1 })],
  tracebackRepeat: [[], () => sh('python reproduce.py', tb(1).repeat(50), { exitCode: 1 })],
  gitDiff: [[], (i) => sh('git diff', Array.from({ length: 40 }, (_, k) => diff(i + k)).join(''))],
  editMany: [[], (i) => ed({ op: 'str_replace', path: `src/m${i}.py`, old: 'a', new: 'b' })],
  goTest: [[], (i) => sh('go test ./...', `--- FAIL: TestX${i} (0.00s)\n    x_test.go:${i}: bad\nFAIL\nFAIL\tpkg/a${i}\t0.01s\nok  \tpkg/b\t0.1s`, { exitCode: 1 })],
  cargo: [[], (i) => sh('cargo test', `error[E0308]: mismatched types\n --> src/m${i}.rs:${i}:5\ntest result: FAILED. ${i} passed; 1 failed; 0 ignored`, { exitCode: 101 })],
  mvn: [
    [],
    (i) => sh('mvn test', `[ERROR] Tests run: ${i}, Failures: 1, Errors: 0, Skipped: 0\n[ERROR] /repo/src/main/java/A${i}.java:[${i},5] cannot find symbol\n[INFO] BUILD FAILURE`, { exitCode: 1 }),
  ],
  jest: [[], (i) => sh('npx jest', `FAIL src/a${i}.test.js\n  ● t > x\n    at Object.<anonymous> (src/a${i}.test.js:${i}:5)\nTests:       1 failed, ${i} passed, ${i + 1} total`, { exitCode: 1 })],
  pythonC: [[], (i) => sh(`python -c "import a${i}; print(a${i}.f(${i}))"`, `${i}`)],
  writeScript: [[], (i) => sh(`cat > reproduce${i}.py <<'EOF'\nimport a\nprint(a.f(${i}))\nEOF`, '')],
};
function cpu(steps) {
  const scorer = createScorer({ reference, analyzers, forecast, forecastFeatures: 'all' });
  const t = process.cpuUsage();
  steps.forEach((s, k) => scorer.push({ ...s, t: k }));
  scorer.report(false);
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}
const build = ([setup, f], n) => [...setup, ...Array.from({ length: n }, (_, i) => f(i))];
for (const [name, p] of Object.entries(PATTERNS)) {
  if (only && !name.startsWith(only)) continue;
  cpu(build(p, 200));
  let a = Infinity,
    b = Infinity;
  for (let r = 0; r < 2; r++) {
    a = Math.min(a, cpu(build(p, N)));
    b = Math.min(b, cpu(build(p, 2 * N)));
  }
  console.log(`${name.padEnd(16)} N=${N}: ${a.toFixed(0)} ms (${(a / N).toFixed(3)} ms/step)  2N: ${b.toFixed(0)} ms  ratio ${(b / a).toFixed(2)}`);
}
