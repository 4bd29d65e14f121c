import type { ParsedShell } from '../ports.js';
import type { Step } from '../types.js';
import type { LabelHistory } from './history.js';
import type { Intent } from './intent.js';
import { intern } from '../memory/flat-string.js';
import { isOutsideRepo } from './paths.js';
import { pythonFileUse } from './python-writes.js';
import { positionals } from './shell-args.js';

type Resolve = (p: string) => string;

const PYTHON = /^(python(\d+(\.\d+)?)?|pypy3?)$/;

function baseName(name: string): string {
  const i = name.lastIndexOf('/');
  return i < 0 ? name : name.slice(i + 1);
}

/**
 * The Python text a shell line runs: the line itself (it holds `-c` code and
 * heredoc bodies) plus the text of any script it runs that the agent wrote earlier.
 * Undefined when the line runs no Python.
 */
function pythonText(command: string, shell: ParsedShell, resolve: Resolve, h: LabelHistory): string | undefined {
  let runsPython = false;
  let parts: string[] | undefined;
  for (const c of shell.commands) {
    if (!PYTHON.test(baseName(c.name))) continue;
    runsPython = true;
    const script = positionals(c.args, SCRIPT_FLAGS)[0];
    if (script === undefined || script === '-' || c.args.includes('-c') || c.args.includes('-m')) continue;
    const text = h.scripts.get(resolve(script));
    if (text !== undefined) (parts ??= [command]).push(text);
  }
  if (!runsPython) return undefined;
  // Most runs hold their code in the line itself: the line, not a joined copy of it.
  return parts === undefined ? command : parts.join('\n');
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
  const use = pythonFileUse(code);
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
  const text = pythonText(command, shell, resolve, h);
  return text === undefined ? [] : scriptWriteIntents(text, resolve, h);
}

/** Remembers the text of files the step wrote, so that running them later can be scanned. */
export function rememberScripts(step: Step, intents: Intent[], h: LabelHistory): void {
  const a = step.action;
  if (a.kind === 'edit') {
    const file = intents[0]?.type === 'write' ? intents[0].file : undefined;
    if (file === undefined) return;
    if (a.op === 'create' || a.op === 'write') h.scripts.set(intern(file), a.text ?? a.new ?? '');
    else if (a.new !== undefined) h.scripts.set(intern(file), `${h.scripts.get(file) ?? ''}\n${a.new}`);
    return;
  }
  if (a.kind !== 'shell') return;
  for (const i of intents) {
    if (i.type === 'write' && !i.script && i.file?.endsWith('.py')) h.scripts.set(intern(i.file), a.command);
  }
}
