import type { ScopeResolver } from '../ports.js';
import type { Label, LineRange, Step } from '../types.js';
import type { LabelOutcome } from '../labeler/labeler.js';
import { lineCount, parseNumberedLines } from './numbered-text.js';
import type { ShadowWorkspace } from './shadow-workspace.js';

const WRAPPED_OUTPUT = /^\s*<returncode>-?\d+<\/returncode>\s*<output>\n?([\s\S]*?)\n?<\/output>\s*$/;

/** The observation text proper (mini-swe-agent `<returncode>`/`<output>` wrappers removed). */
export function observationText(step: Step): string {
  const obs = step.observation ?? '';
  return WRAPPED_OUTPUT.exec(obs)?.[1] ?? obs;
}

/** Scope `file::Qualified.name` of a range, when the file's text up to the range is known. */
export function scopeOf(ws: ShadowWorkspace, scope: ScopeResolver, file: string | undefined, range: LineRange | undefined): string | undefined {
  if (file === undefined || range === undefined) return undefined;
  const p = ws.prefix(file);
  if (!p || Math.max(range[0], range[1]) > p.lines) return undefined;
  const name = scope.scopeAt(file, p.text, range, ws); // the workspace is the run's: its identity keys the run's spans
  return name === undefined ? undefined : `${file}::${name}`;
}

/**
 * Feeds one step into the shadow workspace and returns the scope of its range.
 * For edits the scope is resolved on the text before the edit, and a
 * str_replace's range (where `old` sits) is written into the label. Ends the
 * workspace's step ({@link ShadowWorkspace.settle}).
 */
export function updateWorkspace(ws: ShadowWorkspace, scope: ScopeResolver, step: Step, outcome: LabelOutcome, failed: boolean): string | undefined {
  const found = applyStep(ws, scope, step, outcome, failed);
  ws.settle();
  return found;
}

function applyStep(ws: ShadowWorkspace, scope: ScopeResolver, step: Step, outcome: LabelOutcome, failed: boolean): string | undefined {
  const { label } = outcome;
  const a = step.action;
  const file = label.file;
  if (a.kind === 'view' && file !== undefined) {
    if (!failed) ws.observe(file, parseNumberedLines(observationText(step)));
    return scopeOf(ws, scope, file, label.range);
  }
  if (a.kind === 'edit' && file !== undefined) return applyEdit(ws, scope, a, file, label, failed);
  if (a.kind === 'shell') {
    if (!failed) observeShellRead(ws, step, outcome);
    const found = scopeOf(ws, scope, file, label.range);
    for (const intent of outcome.intents) if (intent.type === 'write' && intent.file !== undefined) ws.forget(intent.file);
    return found;
  }
  return undefined;
}

type EditAction = Extract<Step['action'], { kind: 'edit' }>;

/** An edit's scope on the text before it; the edit is then applied, unless it `failed`: the editor refused it. */
function applyEdit(ws: ShadowWorkspace, scope: ScopeResolver, a: EditAction, file: string, label: Label, failed: boolean): string | undefined {
  const found = editScope(ws, scope, a, file, label);
  if (!failed) changeText(ws, a, file);
  return found;
}

/** The scope an edit aims at, on the known text; a str_replace's range (where `old` sits) is written into the label. */
function editScope(ws: ShadowWorkspace, scope: ScopeResolver, a: EditAction, file: string, label: Label): string | undefined {
  switch (a.op) {
    case 'str_replace': {
      const range = label.range ?? ws.locate(file, a.old ?? '');
      if (range && !label.range) label.range = range;
      return scopeOf(ws, scope, file, range);
    }
    case 'replace_lines':
      return scopeOf(ws, scope, file, a.range);
    case 'insert': {
      const at = a.range?.[0];
      return scopeOf(ws, scope, file, at === undefined ? undefined : [Math.max(1, at), Math.max(1, at)]);
    }
    default:
      return undefined;
  }
}

function changeText(ws: ShadowWorkspace, a: EditAction, file: string): void {
  switch (a.op) {
    case 'create':
    case 'write':
      ws.setText(file, a.text ?? a.new ?? '');
      return;
    case 'str_replace':
      ws.replace(file, a.old ?? '', a.new ?? '');
      return;
    case 'replace_lines':
      if (a.range) ws.replaceLines(file, a.range, a.new ?? a.text ?? '');
      else ws.forget(file);
      return;
    case 'insert': {
      const at = a.range?.[0];
      if (at === undefined) ws.forget(file);
      else ws.insert(file, at, a.new ?? a.text ?? '');
      return;
    }
    case 'undo':
      ws.forget(file);
      return;
  }
}

function observeShellRead(ws: ShadowWorkspace, step: Step, outcome: LabelOutcome): void {
  const intent = outcome.intents[outcome.primary];
  if (intent?.type !== 'read' || intent.files.length !== 1 || outcome.shell?.commands.length !== 1) return;
  const file = intent.files[0];
  if (file === undefined) return;
  const text = observationText(step);
  if (intent.numbered) ws.observe(file, parseNumberedLines(text));
  else if (intent.whole) ws.setText(file, text);
  else if (intent.range) {
    // The lines `plainLines(text)` gives, as their join and count: not split when they go into the file as they are.
    const joined = text.endsWith('\n') ? text.slice(0, -1) : text;
    const count = text === '' ? 0 : lineCount(joined);
    if (count <= intent.range[1] - intent.range[0] + 1) ws.observeWindowText(file, intent.range[0], joined, count);
  }
}
