import type { Label, Stage } from '../types.js';
import type { Intent } from './intent.js';
import type { LabelHistory } from './history.js';
import { intern } from '../memory/flat-string.js';
import { fileRole, isBackupPath, isNotesPath, type FileRole } from './file-roles.js';

/** A write intent with its target's role decided against the history. */
interface WriteFacts {
  role: FileRole;
  created: boolean;
}

function writeFacts(intent: Extract<Intent, { type: 'write' }>, h: LabelHistory): WriteFacts {
  const file = intent.file;
  if (file === undefined) return { role: 'source', created: false };
  const created = h.created.has(file) || intent.create || (intent.mayCreate === true && !h.seen.has(file) && !h.modified.has(file));
  return { role: fileRole(file, created), created };
}

function afterEdit(h: LabelHistory): Stage {
  return h.sourceEdited ? 'V' : 'E';
}

function base(stage: Stage, kind: Label['kind'], rule: number, file?: string): Label {
  const label: Label = { stage, kind, rule, unknown: false, changesFile: false, sourceEdit: false };
  if (file !== undefined) label.file = file;
  return label;
}

function withRange(label: Label, range: [number, number] | undefined): Label {
  if (range) label.range = range;
  return label;
}

/**
 * Applies the effects of a labelled step to the history (modified/created/seen,
 * source edited). Every write of a compound line counts, not only the one that
 * decided the label: `sed -i ... f.py && pytest` is V, but `f.py` changed.
 */
export function record(label: Label, intents: readonly Intent[], h: LabelHistory): void {
  const writes: Array<{ file: string; created: boolean; source: boolean }> = [];
  for (const intent of intents) {
    if (intent.type === 'read') for (const f of intent.files) h.seen.add(intern(f));
    if (intent.type === 'inspect' && intent.kind !== 'list') for (const f of intent.targets) h.seen.add(intern(f));
    if (intent.type === 'write' && intent.file !== undefined && !intent.softCreate && !intent.rejected) {
      const facts = writeFacts(intent, h);
      writes.push({ file: intent.file, created: facts.created && !intent.restore, source: facts.role === 'source' && !intent.restore });
    }
  }
  if (label.changesFile && label.file !== undefined) {
    const created = label.kind === 'create' || (label.kind === 'housekeeping' && !h.seen.has(label.file) && !h.modified.has(label.file));
    writes.push({ file: label.file, created, source: label.sourceEdit });
  }
  for (const w of writes) {
    const file = intern(w.file);
    if (w.created && !h.modified.has(file)) h.created.add(file);
    h.modified.add(file);
    if (w.source) h.sourceEdited = true;
  }
  if (label.sourceEdit) h.sourceEdited = true;
}

function writeLabel(intent: Extract<Intent, { type: 'write' }>, facts: WriteFacts, h: LabelHistory): Label {
  if (intent.rejected) {
    // The stage is the intent's (method.md section 2): an edit the editor refused (SWE-agent 0.x's linter, a
    // str_replace that matched nothing) is still the agent implementing, I on a source file (rule 3) and rule 7's
    // E/V on a test or scratch file. But nothing changed, so it is no change, no source edit, and no write in the
    // history that rules 5-7 read (a re-read of that file is not a check of a change).
    const source = facts.role === 'source';
    return withRange(base(source ? 'I' : afterEdit(h), 'edit', source ? 3 : 7, intent.file), intent.range);
  }
  if (intent.restore) {
    const l = base('O', 'housekeeping', 1, intent.file);
    l.changesFile = true;
    return l;
  }
  const kind = facts.created && !h.modified.has(intent.file ?? '') ? 'create' : 'edit';
  if (facts.role === 'source') {
    const l = withRange(base('I', kind, 3, intent.file), intent.range);
    l.changesFile = true;
    l.sourceEdit = true;
    return l;
  }
  const file = intent.file ?? '';
  if (intent.softCreate || intent.move || isBackupPath(file) || (facts.role === 'scratch' && isNotesPath(file))) {
    const l = base('O', 'housekeeping', 1, intent.file);
    l.changesFile = !intent.softCreate;
    return l;
  }
  const l = withRange(base(afterEdit(h), kind, 7, intent.file), intent.range);
  l.changesFile = true;
  return l;
}

/**
 * The seven-rule cascade (method.md section 2) over the intents of one step.
 * A compound shell line is decided in rule order over all its commands:
 * submit, then a test run (2), then a source write (3), then the primary
 * command's own rule (1, 4, 5, 6, 7 or the fallback). **Choice**: restoring a
 * file from its backup (`cp f.py.backup f.py`) is an undo, rule 1 (O), like
 * `git checkout -- f`; `mv a b` is housekeeping unless `b` is a source file (then I).
 */
export function cascade(intents: readonly Intent[], primaryIndex: number, h: LabelHistory, terminal: boolean): Label {
  const primary = intents[primaryIndex] ?? { type: 'orchestration', kind: 'none' };
  if (primary.type === 'orchestration' && primary.kind === 'finish') return base('O', 'finish', 1);
  const test = intents.find((i) => i.type === 'test');
  if (test) return base('V', 'run_test', 2, test.file);
  for (const i of intents) {
    if (i.type !== 'write' || i.softCreate || i.restore) continue;
    const facts = writeFacts(i, h);
    if (facts.role === 'source') return writeLabel(i, facts, h);
  }
  switch (primary.type) {
    case 'orchestration': {
      const l = base('O', primary.kind, 1, primary.file);
      l.changesFile = primary.changes === true;
      return l;
    }
    case 'write':
      return writeLabel(primary, writeFacts(primary, h), h);
    case 'inspect': {
      const checks = primary.targets.some((t) => h.touched(t));
      const file = primary.targets.length === 1 ? primary.targets[0] : undefined;
      return base(checks ? 'V' : 'E', primary.kind, 4, file);
    }
    case 'read': {
      const checks = primary.files.some((f) => h.touched(f));
      return withRange(base(checks ? 'V' : 'E', 'read', 5, primary.files[0]), primary.range);
    }
    case 'run': {
      const f = primary.file;
      if (f !== undefined && fileRole(f, h.created.has(f)) === 'test' && !h.created.has(f)) return base('V', 'run_test', 2, f);
      return base(afterEdit(h), primary.kind, 6, f);
    }
    case 'install':
      return base('O', 'install', 6);
    case 'test':
      return base('V', 'run_test', 2, primary.file);
    case 'unknown': {
      const l = base(afterEdit(h), terminal ? 'run_other' : 'other', 0);
      l.unknown = true;
      return l;
    }
  }
}
