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
import { flatten } from '../memory/flat-string.js';

/** A path context and the resolver of paths in it (a closure over it). */
interface Resolver {
  ctx: PathContext;
  resolve: (p: string) => string;
}

/** Path contexts a labeler keeps with their resolvers: a step's own, the one its `cd` makes, and a few before. */
const RESOLVERS_KEPT = 4;

/**
 * Resolvers made by any labeler, by root and directory, the first made first; a labeler that needs one another
 * made takes it (runs of one harness work in the same root and directories: each session made its own, ~0.5 KB
 * a session, bench/README.md "mem18"). A context is never changed once made and a resolver depends on it alone, so
 * an equal one serves. Bounded: past {@link SHARED_RESOLVERS} the oldest goes (a labeler keeps its own).
 */
const sharedResolvers = new Map<string, Resolver>();
const SHARED_RESOLVERS = 256;
/** Longer roots and directories together are not shared (the cache stays under ~0.3 MB whatever clients send). */
const SHARED_RESOLVER_CHARS = 512;

/** The shared key of a context: the root's length leads, so that no root and directory pair reads as another. */
function resolverKey(root: string | undefined, dir: string): string {
  return root === undefined ? `-${dir}` : `${root.length}:${root}${dir}`;
}

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

  /** The step's directory (from its `cwd`), learning the root from it when none is known yet. */
  private stepDir(step: Step): string {
    const cwd = step.cwd === undefined || step.cwd.trim() === '' ? undefined : normalizePosix(step.cwd.trim());
    if (this.root === undefined && cwd?.startsWith('/')) this.root = knownRoot(cwd) ?? cwd;
    return cwd === undefined ? '.' : cwd.startsWith('/') ? (stripRoot(cwd, this.root) ?? cwd) : cwd;
  }

  /** The last few path contexts handed out with their resolvers, the most recent first. */
  private readonly resolvers: Resolver[] = [];

  /**
   * The path context `root`, `dir` and its resolver: one of the last {@link RESOLVERS_KEPT} when equal to it. Most
   * steps resolve in the context of the step before (`cd /repo && ...` each step, or no `cd`), which took a context
   * object, two more for a `cd` and a closure a step (bench/README.md, "Lifecycle CPU per step, seventh pass").
   * Contexts are never changed once made, so one serves every step it equals.
   */
  private resolverFor(root: string | undefined, dir: string): Resolver {
    const kept = this.resolvers;
    for (const r of kept) if (r.ctx.dir === dir && r.ctx.root === root) return r;
    const shared = (root?.length ?? 0) + dir.length <= SHARED_RESOLVER_CHARS;
    const key = shared ? flatten(resolverKey(root, dir)) : '';
    let made = shared ? sharedResolvers.get(key) : undefined;
    if (made === undefined) {
      // Copies: a shared context outlives the session, and must not keep a step's text alive through a slice.
      const ctx: PathContext = root === undefined ? { dir: flatten(dir) } : { root: flatten(root), dir: flatten(dir) };
      made = { ctx, resolve: (p: string) => toRepoPath(p, ctx) };
      if (shared) {
        if (sharedResolvers.size >= SHARED_RESOLVERS) sharedResolvers.delete(sharedResolvers.keys().next().value!);
        sharedResolvers.set(key, made);
      }
    }
    if (kept.length >= RESOLVERS_KEPT) kept.pop();
    kept.unshift(made);
    return made;
  }

  private learnRoot(path: string): void {
    if (this.root === undefined && path.startsWith('/')) this.root = knownRoot(normalizePosix(path));
  }

  /**
   * Labels the next step and records its effects in the history. `failed`: the step failed (`stepFailed`); an editor
   * edit that failed was refused and changed nothing.
   */
  label(step: Step, failed: boolean): LabelOutcome {
    const baseDir = this.stepDir(step);
    const a = step.action;
    let outcome: LabelOutcome;
    if (a.kind === 'shell') {
      const shell = this.shell.parse(a.command);
      let dir = baseDir;
      if (shell.cd !== undefined) {
        // The directory the line changes to, from the step's, with the root known now (learned from this `cd` too).
        this.learnRoot(shell.cd);
        dir = toRepoPath(shell.cd, this.resolverFor(this.root, baseDir).ctx);
      }
      const { ctx, resolve } = this.resolverFor(this.root, dir);
      const paths = ctx;
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
      const { ctx: paths, resolve } = this.resolverFor(this.root, baseDir);
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
