/**
 * The words a run's content gives the hashed text model of bench/forecast-text.ts (issue 26: "the evidence that is
 * missing is in the content of the steps"), from harness-neutral parts only: never a tool name, a prompt, a thought
 * or the framing a harness puts around an observation.
 * - `o:` words of the error and test-summary lines of the observations after the last source edit (a line of a
 *   shape the evidence scan knows, `scanOutput`, or one naming an error, failure, exception or assertion);
 * - `x:` exception class names in those observations, `xa:` anywhere in the run;
 * - `p+:` / `p-:` identifiers and keywords of the final patch's added / removed lines (the normalised patch the
 *   vote compares, core/rank/final-patch.ts), `pf:` the extensions of its files;
 * - `v:` the verb of each shell command (its first word, each `&&` / `;` / `|` segment), and `v:code:LANG`.
 * Numbers, paths and quoted strings give no word; each word is lower case, 2 to 30 characters.
 */
import { OUTPUT_WINDOW } from '../../src/core/evidence/step-evidence.js';
import { scanOutput } from '../../src/core/evidence/output-lines.js';
import { createFinalPatchTracker } from '../../src/core/rank/final-patch.js';
import type { Label, State, Step } from '../../src/core/types.js';

const WORD = /[A-Za-z_][A-Za-z0-9_]{1,29}/g;
const ERRORISH = /error|exception|fail|assert|traceback/i;
const EXCEPTION = /\b[A-Z][A-Za-z0-9]{0,40}(?:Error|Exception)\b/g;
/** Words per line and lines per observation read: a huge log line or output costs at most this much. */
const MAX_WORDS_PER_LINE = 24;
const MAX_LINES = 400;

const words = (text: string, max: number): string[] => (text.match(WORD) ?? []).slice(0, max).map((w) => w.toLowerCase());

function add(bag: Map<string, number>, key: string): void {
  bag.set(key, (bag.get(key) ?? 0) + 1);
}

/** The flagged lines of an observation's tail (the window the evidence readers read). */
function flaggedLines(observation: string): string[] {
  const tail = observation.length > OUTPUT_WINDOW ? observation.slice(-OUTPUT_WINDOW) : observation;
  const out: string[] = [];
  for (const line of tail.split('\n').slice(-MAX_LINES)) if (scanOutput(line) !== 0 || ERRORISH.test(line)) out.push(line);
  return out;
}

/** Verbs of a shell command: the first word of each segment, its path dropped (`/usr/bin/python3` -> `python3`). */
function verbs(command: string): string[] {
  const out: string[] = [];
  for (const seg of command.split(/&&|\|\||[;|\n]/)) {
    const first = seg.trim().split(/\s+/)[0] ?? '';
    const base = first.slice(first.lastIndexOf('/') + 1).toLowerCase();
    if (/^[a-z_][\w.+-]{0,29}$/.test(base)) out.push(base);
  }
  return out;
}

/** The bag of one run (word -> count), from its steps and the scorer's states and labels of them (aligned). */
export function runTokens(steps: readonly Step[], states: readonly State[], labels: readonly Label[]): Map<string, number> {
  const bag = new Map<string, number>();
  let lastEdit = -1;
  labels.forEach((l, i) => {
    if (l.sourceEdit) lastEdit = i;
  });
  const patch = createFinalPatchTracker();
  steps.forEach((step, i) => {
    patch.add(step, states[i]!, labels[i]!);
    const a = step.action;
    if (a.kind === 'shell') for (const v of verbs(a.command)) add(bag, `v:${v}`);
    if (a.kind === 'code') add(bag, `v:code:${a.language.toLowerCase()}`);
    const obs = step.observation;
    if (obs === undefined) return;
    const tail = obs.length > OUTPUT_WINDOW ? obs.slice(-OUTPUT_WINDOW) : obs;
    for (const m of tail.matchAll(EXCEPTION)) add(bag, `xa:${m[0]}`);
    if (i <= lastEdit) return;
    for (const m of tail.matchAll(EXCEPTION)) add(bag, `x:${m[0]}`);
    for (const line of flaggedLines(obs)) for (const w of words(line, MAX_WORDS_PER_LINE)) add(bag, `o:${w}`);
  });
  for (const key of patch.value()) {
    const nul = key.indexOf('\0');
    const file = key.slice(0, nul);
    const dot = file.lastIndexOf('.');
    if (dot > file.lastIndexOf('/')) add(bag, `pf:${file.slice(dot + 1).toLowerCase()}`);
    const sign = key[nul + 1] === '+' ? 'p+' : 'p-';
    // Strings and numbers give no word (the WORD pattern skips digits-first tokens; quoted text is dropped first).
    const code = key.slice(nul + 2).replace(/'[^']*'/g, ' ');
    for (const w of words(code, MAX_WORDS_PER_LINE)) add(bag, `${sign}:${w}`);
  }
  return bag;
}
