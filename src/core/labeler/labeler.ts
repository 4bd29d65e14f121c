import type { ParsedShell, ShellAnalyzer } from '../ports.js';
import type { Label, Step } from '../types.js';
import { actionIntent } from './action-intent.js';
import { cascade, record } from './cascade.js';
import { LabelHistory } from './history.js';
import type { Intent } from './intent.js';
import { knownRoot, normalizePosix, stripRoot, toRepoPath, type PathContext } from './paths.js';
import { shellIntents, type ShellIntents } from './shell-intent.js';
import { rememberScripts, scriptWriteIntents, shellScriptWrites } from './script-writes.js';
import { changesEnvironment } from './env-effects.js';

/** CodeR's Manager writes its plan as a shell "command" `plan`, the plan's JSON, then `end_of_plan`: a plan, rule 1 (O). */
/**
 * A coder `plan ... end_of_plan` block. The newline after `plan` and the one before `end_of_plan` are each matched as
 * the first / last newline of their blank run (`[^\S\n]*`), which matches what `\s*\n ... \n\s*` did: those two
 * `\s*` and the `[\s\S]*` between them could split a run of newlines in every way (cubic: a 4 KB command of
 * newlines held the event loop 12 s).
 */
export const CODER_PLAN = /^\s*plan[^\S\n]*\n[\s\S]*\n[^\S\n]*end_of_plan\s*$/;

/** The labeler's verdict with what it derived on the way (the state builder reuses it). */
export interface LabelOutcome {
  label: Label;
  /** The intents of the step (one per classified shell command); read-only: a shell line's may be its memo's own list. */
  intents: readonly Intent[];
  primary: number;
  /** The parsed shell line, for terminal steps. */
  shell?: ParsedShell;
  /** Path context the step's paths were resolved in. */
  paths: PathContext;
  /** True when the step changed the environment or the tree beyond the write its label names ({@link changesEnvironment}). */
  changesEnv: boolean;
}

/** Options of {@link Labeler}. */
export interface LabelerOptions {
  /** Absolute repository root, when the caller knows it (else learned from `cwd` and well-known roots). */
  root?: string;
}

/**
 * The context-sensitive intent-stage labeler (method.md section 2): stateful,
 * fed the steps of one trajectory in order.
 */
export class Labeler {
  readonly history = new LabelHistory();
  private root: string | undefined;

  constructor(
    private readonly shell: ShellAnalyzer,
    options: LabelerOptions = {},
  ) {
    this.root = options.root === undefined ? undefined : normalizePosix(options.root);
  }

  /** The repository root in use (given, learned from the first `cwd`, or a well-known root seen). */
  get repoRoot(): string | undefined {
    return this.root;
  }

  private context(step: Step): PathContext {
    const cwd = step.cwd === undefined || step.cwd.trim() === '' ? undefined : normalizePosix(step.cwd.trim());
    if (this.root === undefined && cwd?.startsWith('/')) this.root = knownRoot(cwd) ?? cwd;
    const dir = cwd === undefined ? '.' : cwd.startsWith('/') ? (stripRoot(cwd, this.root) ?? cwd) : cwd;
    return this.root === undefined ? { dir } : { root: this.root, dir };
  }

  private learnRoot(path: string): void {
    if (this.root === undefined && path.startsWith('/')) this.root = knownRoot(normalizePosix(path));
  }

  /**
   * Labels the next step and records its effects in the history. `failed`: the step failed (`stepFailed`); an editor
   * edit that failed was refused and changed nothing.
   */
  label(step: Step, failed: boolean): LabelOutcome {
    const base = this.context(step);
    const a = step.action;
    let outcome: LabelOutcome;
    if (a.kind === 'shell') {
      const shell = this.shell.parse(a.command);
      let paths = base;
      if (shell.cd !== undefined) {
        this.learnRoot(shell.cd);
        paths = cdContext(base, this.root, shell.cd);
      }
      const ctx = paths;
      const resolve = (p: string) => toRepoPath(p, ctx);
      const own: ShellIntents | undefined = CODER_PLAN.test(a.command)
        ? { intents: [{ type: 'orchestration', kind: 'think' }], primary: 0 }
        : shell.commands.length === 0
          ? { intents: [emptyShellIntent(shell)], primary: 0 }
          : undefined;
      const { intents: lineIntents, primary } = own ?? memoShellIntents(shell, ctx, resolve);
      // The memo's list is used as it is unless this step adds to it or replaces its primary: a copy of it every
      // shell step was the labeler's largest line (bench/README.md, "Lifecycle CPU per step, sixth pass").
      let intents: readonly Intent[] = lineIntents;
      const writes = shellScriptWrites(a.command, shell, resolve, this.history);
      if (writes.length > 0) intents = [...lineIntents, ...writes];
      if (isProse(a.command, shell, intents[primary])) {
        const replaced = [...intents];
        replaced[primary] = { type: 'orchestration', kind: 'message' };
        intents = replaced;
      }
      const label = cascade(intents, primary, this.history, true);
      outcome = { label, intents, primary, shell, paths, changesEnv: changesEnvironment(label, intents, shell) };
    } else {
      if ('path' in a && typeof a.path === 'string') this.learnRoot(a.path);
      const paths = this.root === undefined ? base : { ...base, root: this.root };
      const resolve = (p: string) => toRepoPath(p, paths);
      const intents = [actionIntent(step, resolve)];
      const first = intents[0];
      if (failed && a.kind === 'edit' && first?.type === 'write') intents[0] = { ...first, create: false, mayCreate: false, rejected: true };
      if (a.kind === 'code' && intents[0]?.type === 'run') intents.push(...scriptWriteIntents(a.code, resolve, this.history));
      const label = cascade(intents, 0, this.history, a.kind === 'code');
      outcome = { label, intents, primary: 0, paths, changesEnv: changesEnvironment(label, intents, undefined) };
    }
    record(outcome.label, outcome.intents, this.history);
    rememberScripts(step, outcome.intents, this.history);
    return outcome;
  }
}

/**
 * The path context after a line's `cd`: `base` with the repository root known now and the directory the line
 * changes to. Built field by field, in the key order the spreads that built it gave (`root`, `dir`, or `dir`,
 * `root` when the root was learned from this very `cd`): most shell steps begin `cd /repo &&`, and the two object
 * spreads a step were the labeler's largest own cost.
 */
function cdContext(base: PathContext, root: string | undefined, cd: string): PathContext {
  const at = root ?? base.root;
  const dir = toRepoPath(cd, at === undefined ? { dir: base.dir } : { root: at, dir: base.dir });
  if (root === undefined) return base.root === undefined ? { dir } : { root: base.root, dir };
  return base.root === undefined ? { dir, root } : { root, dir };
}

/**
 * True for a "command" that is the model's prose run through the shell (a
 * format error: SWE-agent 0.x ran `I'll also check if ...` as bash). Rule 1
 * labels steps without a real action O. Only a line whose first command no
 * rule knows, that the parser rejects or whose command "name" spans words
 * (quotes glued `I'll ... I'll` into one word), and that reads as sentences, counts.
 */
function isProse(command: string, shell: ParsedShell, primary: Intent | undefined): boolean {
  const name = shell.commands[0]?.name ?? '';
  if (primary?.type !== 'unknown' || (shell.ok && !/\s/.test(name))) return false;
  const text = command.trim();
  return /^[A-Z][a-z]*('[a-z]+)?\s+[a-z]/.test(text) && /[.!?:]\s*$/.test(text) && text.split(/\s+/).length >= 6;
}

/**
 * {@link shellIntents} memoised per parsed line (the shell analyzer caches parses per command
 * string, so a repeated command is the same object) and path context: the intents depend on
 * nothing else. The cached intents and their list are shared read-only: a caller that adds to the list copies it.
 */
const intentMemo = new WeakMap<ParsedShell, Map<string | undefined, Map<string, ShellIntents>>>();

function memoShellIntents(shell: ParsedShell, ctx: PathContext, resolve: (p: string) => string): Readonly<{ intents: readonly Intent[]; primary: number }> {
  let byRoot = intentMemo.get(shell);
  if (byRoot === undefined) {
    byRoot = new Map();
    intentMemo.set(shell, byRoot);
  }
  // By root, then by directory: no key string is built (and hashed) per step.
  let byDir = byRoot.get(ctx.root);
  if (byDir === undefined) {
    byDir = new Map();
    byRoot.set(ctx.root, byDir);
  }
  let hit = byDir.get(ctx.dir);
  if (hit === undefined) {
    hit = shellIntents(shell, resolve);
    byDir.set(ctx.dir, hit);
  }
  return hit;
}

function emptyShellIntent(shell: ParsedShell): Intent {
  if (shell.cd !== undefined) return { type: 'inspect', kind: 'list', targets: [] };
  // `export X=1`, `source venv/bin/activate`: set-up for later commands, not a turn without an action.
  if (shell.env === true) return { type: 'orchestration', kind: 'housekeeping' };
  return shell.ok ? { type: 'orchestration', kind: 'none' } : { type: 'unknown' };
}
