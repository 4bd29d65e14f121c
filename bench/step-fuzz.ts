/**
 * Does any step text cost more than the parse budgets allow? Builds steps whose fields (a command, a code cell, a
 * file's text then a view or an edit of it, an observation after a test runner, a path, a thought, a search...) hold
 * a long run of one piece of text (a character, or a fragment of shell, Python, test output or diff), and scores each
 * through a fresh scorer (against a real PTA, so scope lookups run) at ~10,000, ~20,000 and 65,536 characters. It
 * lists the cases whose time grew more than 2.6 times from 10k to 20k (past 15 ms): the shape of a pattern that
 * backtracks or a parser whose error recovery is superlinear. Stop 51 found four this way (docs/reliability.md, T26);
 * what it lists now are tree-sitter parses, which their 100 ms budgets cap (their time at 64 KiB shows it).
 * Target: every step at 64 KiB under 250 ms (the stall bench's bound).
 *
 *   npm run build && node dist/bench/step-fuzz.js [--only FIELD_PREFIX] [--json FILE]
 */
import { parseArgs } from 'node:util';
import { chooseReference } from '../src/cli/references.js';
import { createScorer } from '../src/core/scorer.js';
import type { Step } from '../src/core/types.js';
import { defaultAnalyzers } from '../src/syntax/index.js';
import { repoRoot, SERVER_BENCH_TASK } from './corpus.js';
import { machine, target, writeResult } from './report.js';
import { commandLine, printTable } from './timing.js';

const { values: args } = parseArgs({ options: { only: { type: 'string' }, json: { type: 'string' } } });

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

/** Milliseconds to score `steps` through a fresh scorer, its report included; and its slowest step. */
function time(steps: Array<Omit<Step, 't'>>): { total: number; slowest: number } {
  const scorer = createScorer({ reference, analyzers });
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
    time(make(piece.repeat(50))); // warm the code path
    const small = time(make(piece.repeat(n)));
    const large = time(make(piece.repeat(2 * n)));
    const max = time(make(piece.repeat(Math.ceil(65_536 / piece.length)).slice(0, 65_536)));
    runs++;
    if (max.slowest > worst) worst = max.slowest;
    if (large.total > 15 && large.total / Math.max(small.total, 0.5) > 2.6) rows.push([name, JSON.stringify(piece), small.total.toFixed(1), large.total.toFixed(1), max.slowest.toFixed(1)]);
  }
}
console.log(`${runs} cases (${cases.length} step shapes x ${CHARS.length + FRAGMENTS.length} pieces), each at ~10,000, ~20,000 and 65,536 characters`);
console.log(`superlinear from 10k to 20k (> x2.6, past 15 ms): ${rows.length}`);
if (rows.length > 0) printTable(['shape', 'piece', 'ms at 10k', 'ms at 20k', 'slowest step ms at 64k'], rows);
const targets = [target('step-fuzz slowest step at 64 KiB of one piece of text', worst, '<', 250, 'ms')];
writeResult(args.json, { bench: 'step-fuzz', command, machine: machine(), targets, figures: { cases: runs, superlinear_10k_20k: rows.length, slowest_64k_ms: worst } });
