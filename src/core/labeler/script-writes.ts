import type { ParsedShell } from '../ports.js';
import type { Step } from '../types.js';
import type { LabelHistory } from './history.js';
import type { Intent } from './intent.js';
import { intern } from '../memory/flat-string.js';
import { isOutsideRepo } from './paths.js';
import { EMPTY_SCAN, fileUseOfScans, pythonFileUse, pythonScan, type PythonFileUse, type PythonScan } from './python-writes.js';
import { positional } from './shell-args.js';

type Resolve = (p: string) => string;

const PYTHON = /^(python(\d+(\.\d+)?)?|pypy3?)$/;

function baseName(name: string): string {
  const i = name.lastIndexOf('/');
  return i < 0 ? name : name.slice(i + 1);
}

/**
 * What the Python a shell line runs opens: the line itself (it holds `-c` code and heredoc bodies) and any
 * script it runs that the agent wrote earlier, from that script's kept scan. Undefined when the line runs no Python.
 */
function pythonUse(command: string, shell: ParsedShell, resolve: Resolve, h: LabelHistory): PythonFileUse | undefined {
  let runsPython = false;
  let scans: PythonScan[] | undefined;
  for (const c of shell.commands) {
    if (!PYTHON.test(baseName(c.name))) continue;
    runsPython = true;
    const script = positional(c.args, 0, SCRIPT_FLAGS);
    if (script === undefined || script === '-' || c.args.includes('-c') || c.args.includes('-m')) continue;
    const scan = h.script(resolve(script));
    if (scan !== undefined) (scans ??= [pythonScan(command)]).push(scan);
  }
  if (!runsPython) return undefined;
  // Most runs hold their code in the line itself: the line's own memoised scan.
  return scans === undefined ? pythonFileUse(command) : fileUseOfScans(scans);
}

/** Python flags that take a value (`-W ignore`, `-X dev`): their values are not the script. */
const SCRIPT_FLAGS: ReadonlySet<string> = new Set(['-W', '-X']);

/**
 * Source files a Python run rewrites (**choice**, method.md rule 3 read broadly):
 * an agent that patches `pkg/mod.py` with `python fix.py` or `python - <<EOF`
 * has edited source, so the run counts as an edit (I). To keep scratch output
 * (`open('out.txt', 'w')`) out, a written path counts only when it is inside the
 * repository and the same code reads it too, or the agent has seen or changed it before.
 */
export function scriptWriteIntents(code: string, resolve: Resolve, h: LabelHistory): Intent[] {
  return writeIntents(pythonFileUse(code), resolve, h);
}

function writeIntents(use: PythonFileUse, resolve: Resolve, h: LabelHistory): Intent[] {
  if (use.writes.length === 0) return [];
  const reads = new Set(use.reads.map(resolve));
  const out: Intent[] = [];
  for (const raw of use.writes) {
    const file = resolve(raw);
    if (isOutsideRepo(file) || file === '.') continue;
    if (reads.has(file) || h.seen.has(file) || h.touched(file)) out.push({ type: 'write', file, create: false, script: true });
  }
  return out;
}

/** Write intents of the Python a shell line runs (see {@link scriptWriteIntents}). */
export function shellScriptWrites(command: string, shell: ParsedShell, resolve: Resolve, h: LabelHistory): Intent[] {
  const use = pythonUse(command, shell, resolve, h);
  return use === undefined ? [] : writeIntents(use, resolve, h);
}

/**
 * Remembers what the files the step wrote open, so that running them later can be scanned: the scan of the text
 * written, and for an edit the file's scan so far followed by the new text's (the file's text with the new text
 * appended, as before).
 */
export function rememberScripts(step: Step, intents: readonly Intent[], h: LabelHistory): void {
  const a = step.action;
  if (a.kind === 'edit') {
    const write = intents[0];
    // A refused edit wrote nothing to scan.
    if (write?.type !== 'write' || write.file === undefined || write.rejected === true) return;
    const file = write.file;
    if (a.op === 'create' || a.op === 'write') h.setScript(intern(file), pythonScan(a.text ?? a.new ?? ''));
    else if (a.new !== undefined) h.setScript(intern(file), joinScans(h.script(file), pythonScan(a.new)));
    return;
  }
  if (a.kind !== 'shell') return;
  for (const i of intents) {
    if (i.type === 'write' && !i.script && i.file?.endsWith('.py')) h.setScript(intern(i.file), pythonScan(a.command));
  }
}

/** The scan of two texts joined by a newline (see {@link fileUseOfScans}). */
function joinScans(a: PythonScan | undefined, b: PythonScan): PythonScan {
  if (a === undefined || a === EMPTY_SCAN) return b;
  if (b === EMPTY_SCAN) return a;
  // concat, not spreads: arrays of exact size (memory/small-arrays.ts), kept for the session's life.
  return { assigns: a.assigns.concat(b.assigns), opens: a.opens.concat(b.opens), methods: a.methods.concat(b.methods) };
}
