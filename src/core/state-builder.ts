import { DEFAULT_CONFIG } from './config.js';
import type { Analyzers } from './ports.js';
import type { Label, State, Step } from './types.js';
import { stateRecord } from './state/state-record.js';
import { Labeler } from './labeler/labeler.js';
import { forgetRestDigests, hashContent, md5 } from './state/normalize.js';
import { NO_TOKENS, terminalFacts } from './state/terminal-facts.js';
import { stepFailed } from './state/failure.js';
import { stepCost } from './state/cost.js';
import { ShadowWorkspace } from './state/shadow-workspace.js';
import { updateWorkspace } from './state/workspace-update.js';
import { createVariantTracker, exactAction, exactKey, terminalExactKey, type VariantTracker } from './state/variant.js';
import { sameText } from './memory/same-text.js';
import { intern } from './memory/flat-string.js';

/** Turns the steps of one trajectory, in order, into labels and scorer states. */
export interface StateBuilder {
  /** Labels the next step and builds its state (O(1) apart from parsing). */
  next(step: Step): { label: Label; state: State };
  /** No more steps are coming soon: the workspace's texts leave the shared hot set undeflated ({@link ShadowWorkspace.release}). */
  release(): void;
  /** No step is expected soon (an idle session): the workspace keeps its long texts deflated ({@link ShadowWorkspace.compact}). */
  compact(): void;
}

/** Options of {@link createStateBuilder}. */
export interface StateBuilderOptions {
  /** Absolute repository root, when known (else learned from `cwd` / `/testbed`-style paths). */
  root?: string;
  /** Token estimate of a step without token counts: characters / this (default: the default config's). */
  charsPerToken?: number;
  /** States the trajectory is expected to reach (its PTA's reference runs' median; 0 or absent: unknown): sizes the variant table. */
  expectedStates?: number;
}

/**
 * A stateful, incremental state builder (method.md sections 1-3): the labeler's
 * history, the shadow workspace and the repository root live in it.
 */
export function createStateBuilder(analyzers: Analyzers, options: StateBuilderOptions = {}): StateBuilder {
  return new IncrementalStateBuilder(analyzers, options);
}

/** A class, not an object of closures: every session keeps one, and shares the method. */
class IncrementalStateBuilder implements StateBuilder {
  private readonly labeler: Labeler;
  private readonly workspace = new ShadowWorkspace();
  private readonly variants: VariantTracker;
  private readonly charsPerToken: number;

  constructor(
    private readonly analyzers: Analyzers,
    options: StateBuilderOptions,
  ) {
    this.labeler = new Labeler(analyzers.shell, options);
    this.variants = createVariantTracker(options.expectedStates);
    this.charsPerToken = options.charsPerToken ?? DEFAULT_CONFIG.charsPerToken;
  }

  release(): void {
    this.workspace.release();
  }

  compact(): void {
    this.workspace.compact();
    this.variants.compact();
  }

  next(step: Step): { label: Label; state: State } {
    const { labeler, workspace, variants, analyzers, charsPerToken } = this;
    // The command as the string the command-keyed caches were asked with before (same-text.ts): an equal string,
    // already hashed, instead of hashing a frame's new copy of it again. A caller's frozen step is read as it is.
    const act = step.action;
    if (!Object.isFrozen(act)) {
      if (act.kind === 'shell') act.command = sameText(act.command);
      else if (act.kind === 'code') act.code = sameText(act.code);
    }
    const failed = stepFailed(step);
    const outcome = labeler.label(step, failed);
    const label = outcome.label;
    const scope = updateWorkspace(workspace, analyzers.scope, step, outcome, failed);
    const root = labeler.repoRoot;
    const a = step.action;
    const terminal = a.kind === 'shell' || a.kind === 'code';
    const facts = a.kind === 'shell' ? terminalFacts('shell', a.command, root) : a.kind === 'code' ? terminalFacts('code', a.code, root) : undefined;
    // Pooled once here, for the state (stateRecord takes it as given) and the variant table alike, not a copy each
    // (an action's first hash, md5's output, was a second string of 48 B in the table: ~0.6 KB an active disjoint
    // session; bench/README.md "mem20").
    const hash = intern(facts !== undefined ? facts.hash : md5(hashContent(a, label.file, root)));
    const dir = outcome.paths.dir;
    const key = facts !== undefined && terminal ? terminalExactKey(facts, a, dir, root) : exactKey(exactAction(a, step.tool, label.file, dir, root));
    const variant = variants.isVariant(hash, key);
    forgetRestDigests();
    const state = stateRecord(
      {
        t: step.t,
        stage: label.stage,
        kind: label.kind,
        tool: step.tool,
        hash,
        tokens: facts !== undefined ? (facts.tokens as string[]) : (NO_TOKENS as string[]),
        command: terminal,
        changesFile: label.changesFile,
        failed,
        cost: stepCost(step, charsPerToken),
        unknown: label.unknown,
      },
      label.file,
      label.range,
      scope,
    );
    // The flags after the other fields, as stateRecord adds them (a literal with spreads of `{}` cost two objects a step).
    if (outcome.changesEnv) state.changesEnv = true;
    if (variant) state.variant = true;
    return { label, state };
  }
}

/** Labels a whole trajectory: the fold of {@link StateBuilder.next} over `steps`. */
export function labelSteps(steps: Step[], analyzers: Analyzers, options: StateBuilderOptions = {}): Array<{ label: Label; state: State }> {
  const builder = createStateBuilder(analyzers, options);
  return steps.map((s) => builder.next(s));
}
