/**
 * Does any step text cost more than the parse budgets allow? Builds steps whose fields (a command, a code cell, a
 * file's text then a view or an edit of it, an observation after a test runner, a path, a thought, a search...) hold
 * a long run of one piece of text (a character, or a fragment of shell, Python, test output or diff), and scores each
 * through a fresh scorer (against a real PTA, so scope lookups run; with the bundled forecast model computing every
 * evidence value, as `serve --forecast-learn` does, so every reader of a command's output runs) at ~10,000, ~20,000
 * and 65,536 characters. It lists the cases whose time grew more than 2.6 times from 10k to 20k (past 15 ms): the
 * shape of a pattern that backtracks or a parser whose error recovery is superlinear. An observation after a command
 * is read by its last 16 KiB (OUTPUT_WINDOW), where 10k to 20k can grow at most ×2.56 even for a square: those shapes
 * are compared at 8 and 16 KiB instead (past 5 ms). Stop 51 found four this way (docs/reliability.md, T26), the
 * observation shapes four more (T29); what it lists now are tree-sitter parses, which their 100 ms budgets cap
 * (their time at 64 KiB shows it).
 * Target: every step at 64 KiB under 250 ms (the stall bench's bound).
 *
 *   npm run build && node dist/bench/step-fuzz.js [--only FIELD_PREFIX] [--json FILE]
 */
import { chooseReference } from '../src/cli/references.js';
import { OUTPUT_WINDOW } from '../src/core/evidence/step-evidence.js';
import { selectModel } from '../src/core/forecast/model.js';
import { createScorer } from '../src/core/scorer.js';
import type { Step } from '../src/core/types.js';
import { bundledForecastFile } from '../src/package-files.js';
import { readForecastFile } from '../src/settings-files.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { benchArgs } from './args.js';
import { repoRoot, SERVER_BENCH_TASK } from './corpus.js';
import { machine, target, writeResult } from './report.js';
import { commandLine, printTable } from './timing.js';

const { values: args } = benchArgs({ options: { only: { type: 'string' }, json: { type: 'string' } } });

const CHARS = [...'a =\t1()\'"/.\n-:\\$`{}[],#*!%&|><;_\r+@~?^', '\u0000', '\u00a0', '\u2028', 'é', '中', '😀'];
const FRAGMENTS = [
  'x.py:',
  'File "',
  'def ',
  'Traceback',
  '  File "a.py", line 1, in f\n',
  'Error: ',
  'FAILED ',
  'passed',
  '::',
  'E   ',
  '--- FAIL: ',
  '=== RUN ',
  'test result: ',
  '[INFO] ',
  'Tests run: ',
  '    at a (b.js:1:2)\n',
  'cd ',
  'pip install ',
  'import ',
  'from ',
  'Path(',
  'open(',
  'src/',
  '~/',
  "sed -i 's/a/b/g' ",
  'diff --git ',
  '@@ -1 +1 @@\n',
  '+a\n',
  '1\t',
  '1:',
  '[File: ',
  'cat <<EOF\n',
  '${a}',
  '$(a)',
  'a=b ',
  '--x=y ',
  'a && ',
  'a | ',
  '2>&1 ',
  '12>&',
  'print(',
  'class A:',
  '\n    ',
  'a\\\n',
  '{}',
  '1.0',
  '...',
  '-->',
  '<!--',
  '</a>',
  '- [ ] ',
  // Lines that start after a `\r` (a multiline `^` matches there) in a runner's output (`thread '` first: the error readers
  // run only on output with a line of a traceback's shape), and lines that end a compiler location's `(...)` (T29).
  'Tests:\r',
  '1 passed in 1s (\r',
  "thread 'a\rError: \r",
  'a):1\n',
];
const RUNNERS = ['python -m pytest', 'mvn test', 'go test ./...', 'cargo test', 'npm test', 'python reproduce.py', 'git diff', 'tox'];

type Case = (text: string) => Array<Omit<Step, 't'>>;
const step = (action: Step['action'], observation = 'ok', extra: Partial<Step> = {}): Omit<Step, 't'> => ({ tool: 'x', action, observation, ...extra });
const CASES: Record<string, Case> = {
  command: (text) => [step({ kind: 'shell', command: text })],
  code: (text) => [step({ kind: 'code', language: 'python', code: text })],
  codeBash: (text) => [step({ kind: 'code', language: 'bash', code: text })],
  createView: (text) => [step({ kind: 'edit', op: 'create', path: 'a.py', text }), step({ kind: 'view', path: 'a.py', range: [1, 1] }, '1\tx')],
  createViewLines: (text) => [step({ kind: 'edit', op: 'create', path: 'a.py', text: text.replace(/(.{80})/gs, '$1\n') }), step({ kind: 'view', path: 'a.py', range: [2, 2] }, '2\tx')],
  replace: (text) => [step({ kind: 'edit', op: 'create', path: 'a.py', text: `${text}zz` }), step({ kind: 'edit', op: 'str_replace', path: 'a.py', old: 'zz', new: text })],
  viewObservation: (text) => [step({ kind: 'view', path: 'a.py' }, text)],
  viewPath: (text) => [step({ kind: 'view', path: text })],
  editPath: (text) => [step({ kind: 'edit', op: 'create', path: text, text: 'a' })],
  thought: (text) => [step({ kind: 'think', text }, 'ok', { thought: text })],
  finish: (text) => [step({ kind: 'finish', text })],
  search: (text) => [step({ kind: 'search', query: text, path: text.slice(0, 300) })],
  tool: (text) => [{ tool: text.slice(0, 2000), action: { kind: 'other', name: text }, observation: text }],
  cwd: (text) => [step({ kind: 'shell', command: 'ls' }, 'ok', { cwd: text })],
  ...Object.fromEntries(RUNNERS.map((r) => [`observation after ${r}`, (text: string) => [step({ kind: 'shell', command: r }, text, { exitCode: 1 })]])),
};

const reference = await chooseReference(`${repoRoot()}/data/example/${SERVER_BENCH_TASK}.json`);
const analyzers = defaultAnalyzers();
const forecast = selectModel(await readForecastFile(bundledForecastFile()), undefined, undefined);
if (forecast === undefined) throw new Error('the bundled forecast file has no default model');
/** Shapes whose text is read by its last OUTPUT_WINDOW characters: compared at half the window and the window. */
const windowed = (name: string) => name.startsWith('observation after');

/** Milliseconds to score `steps` through a fresh scorer, its report included; and its slowest step. */
function time(steps: Array<Omit<Step, 't'>>): { total: number; slowest: number } {
  const scorer = createScorer({ reference, analyzers, forecast, forecastFeatures: 'all' });
  const started = performance.now();
  let slowest = 0;
  steps.forEach((s, t) => {
    const at = performance.now();
    scorer.push({ ...s, t });
    slowest = Math.max(slowest, performance.now() - at);
  });
  scorer.report(false);
  return { total: performance.now() - started, slowest };
}

const command = commandLine(import.meta.url);
console.log(`command: ${command}`);
const cases = Object.entries(CASES).filter(([name]) => args.only === undefined || name.startsWith(args.only));
const rows: string[][] = [];
let worst = 0;
let runs = 0;
for (const piece of [...CHARS, ...FRAGMENTS]) {
  const n = Math.ceil(10_000 / piece.length);
  for (const [name, make] of cases) {
    const [a, b, floor] = windowed(name) ? [OUTPUT_WINDOW / 2, OUTPUT_WINDOW, 5] : [n * piece.length, 2 * n * piece.length, 15];
    const sized = (chars: number) => piece.repeat(Math.ceil(chars / piece.length)).slice(0, chars);
    time(make(piece.repeat(50))); // warm the code path
    let small = time(make(sized(a))).total;
    let large = time(make(sized(b))).total;
    const max = time(make(piece.repeat(Math.ceil(65_536 / piece.length)).slice(0, 65_536)));
    runs++;
    if (max.slowest > worst) worst = max.slowest;
    const grew = () => large > floor && large / Math.max(small, 0.5) > 2.6;
    if (grew()) {
      // A garbage collection in one of the two can take as long as the whole step: listed if it still grows on the best of three more tries each.
      for (let i = 0; i < 3; i++) {
        small = Math.min(small, time(make(sized(a))).total);
        large = Math.min(large, time(make(sized(b))).total);
      }
      if (grew()) rows.push([name, JSON.stringify(piece), `${(a / 1024).toFixed(1)}k`, small.toFixed(1), large.toFixed(1), max.slowest.toFixed(1)]);
    }
  }
}
console.log(
  `${runs} cases (${cases.length} step shapes x ${CHARS.length + FRAGMENTS.length} pieces), each at ~10,000, ~20,000 and 65,536 characters (read by the last ${OUTPUT_WINDOW}: at ${OUTPUT_WINDOW / 2}, ${OUTPUT_WINDOW} and 65,536)`,
);
console.log(`superlinear from n to 2n (> x2.6, past 15 ms; windowed shapes past 5 ms): ${rows.length}`);
if (rows.length > 0) printTable(['shape', 'piece', 'n', 'ms at n', 'ms at 2n', 'slowest step ms at 64k'], rows);
const targets = [target('step-fuzz slowest step at 64 KiB of one piece of text', worst, '<', 250, 'ms')];
writeResult(args.json, { bench: 'step-fuzz', command, machine: machine(), targets, figures: { cases: runs, superlinear_10k_20k: rows.length, slowest_64k_ms: worst } });
