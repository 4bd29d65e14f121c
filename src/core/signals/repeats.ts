/**
 * What the repeat detectors (blind retry, redundant step, regression loop,
 * cyclic pattern; method.md sections 6.3 and 10) take as "the same action"
 * and as "a change in between".
 */
import { hashSlots, KeyTable } from '../memory/key-table.js';
import type { ActionKind, State } from '../types.js';

/**
 * Slots a history's table starts with: a session meets a handful of files and hashes first; a table of 8 slots
 * (~0.3 KB) holds 6, and doubles past that.
 */
const HISTORY_SLOTS = 8;

/**
 * Kinds never taken as a repeat **(choice)**. `finish`: SWE-agent 1.x asks the
 * agent to confirm its `submit` and terminus-2 its `mark_task_complete`, so a
 * passing run ends with two; CodeR's sub-agents each end with `succeed` or
 * `fail`. That is the harness's protocol, not the agent retrying. `none` (a
 * turn without an action) and `other` (a tool call no parser knew, hashed by
 * its name alone) have hashes that say nothing about what was done.
 */
export const REPEAT_EXEMPT_KINDS: ReadonlySet<ActionKind> = new Set<ActionKind>(['finish', 'none', 'other']);

/** True when the state changed a file, the tree or the environment. */
export function changesAnything(state: State): boolean {
  return state.changesFile || state.changesEnv === true;
}

/**
 * True for a state whose outcome depends on its target file alone: a read of
 * a file, or an editor's edit of it (a shell command's edit may run a script
 * that reads other files). Repeating it is a retry unless that file (or the
 * tree as a whole) changed in between.
 */
function fileScoped(s: State): boolean {
  return s.file !== undefined && (s.kind === 'read' || (!s.command && (s.kind === 'edit' || s.kind === 'create')));
}

/** Records the changes states make, to tell whether anything relevant to a state changed after step `t`. */
export interface ChangeLog {
  /** Records `state`'s changes (call for every state that is not itself a repeat: a repeated change is a no-op). */
  record(state: State): void;
  /** True when something that can alter `state`'s outcome changed after step `t`. */
  changedSince(state: State, t: number): boolean;
}

export function createChangeLog(): ChangeLog {
  return new Changes();
}

/** A class, not an object of closures: every session keeps one, and shares the methods. */
class Changes implements ChangeLog {
  private lastAny = -1;
  // Changes that may touch any file: a write of an unknown file, a deletion, a checkout, a second write of a line.
  private lastTree = -1;
  /** The last change of each file, by path (a key table, not a `Map`: 2 words a slot against the `Map`'s 3.5). */
  private readonly lastFile = new KeyTable(HISTORY_SLOTS, 'any');

  record(s: State): void {
    if (s.changesFile) {
      this.lastAny = s.t;
      if (s.file === undefined) this.lastTree = s.t;
      else this.lastFile.swap(s.file, s.t);
    }
    if (s.changesEnv === true) {
      this.lastAny = s.t;
      // An install changes what commands do, not the files the agent reads or edits.
      if (s.kind !== 'install') this.lastTree = s.t;
    }
  }

  changedSince(s: State, t: number): boolean {
    if (fileScoped(s)) return Math.max(this.lastTree, this.lastFile.get(s.file!) ?? -1) > t;
    return this.lastAny > t;
  }
}

/** A blind-retry detector (see {@link createRetryDetector}). */
export interface RetryDetector {
  add(state: State): number | undefined;
}

/**
 * One retry detector for several consumers that are each fed every state, in the same order (the scorer's
 * coherence tracker and blind-retry stop signal): the first `add` of a state object computes, the others get
 * its answer. One history (a map of every distinct hash seen) per session instead of one per consumer.
 * `expected`: the states the session is expected to reach (0: unknown), sizing the history's first table.
 */
export function sharedRetryDetector(expected = 0): SharedRetryDetector {
  return new SharedRetry(createRetryDetector(expected));
}

/** A shared retry detector, told when every consumer has had the step's state. */
export interface SharedRetryDetector extends RetryDetector {
  /**
   * Drops the step's state: kept until the session's next step, it would outlive a scavenge and be promoted (with
   * many sessions stepping in turn, one state object a session a step). The next `add` computes anew.
   */
  endStep(): void;
}

class SharedRetry implements SharedRetryDetector {
  private last: State | undefined;
  private answer: number | undefined;

  constructor(private readonly inner: RetryDetector) {}

  add(state: State): number | undefined {
    if (state !== this.last) {
      this.answer = this.inner.add(state);
      this.last = state;
    }
    return this.answer;
  }

  endStep(): void {
    this.last = undefined;
  }
}

/**
 * Detects blind retries: a state whose action repeats an earlier state's (same
 * hash, not a variant) with nothing changed in between that could alter its
 * outcome: for a run, search or listing, no file, tree or environment change
 * at all; for a read or an edit of a file, no change of that file or of the
 * tree. A change that is itself a repeat changed nothing. A `finish` that does
 * not end the run hands over to a fresh context (a confirm turn, CodeR's next
 * sub-agent): what came before it is forgotten. `add` returns the index (`t`)
 * of the most recent earlier state the state repeats, or undefined. `expected`: as for {@link sharedRetryDetector}.
 */
export function createRetryDetector(expected = 0): RetryDetector {
  return new Retries(expected);
}

/** A class, not an object of closures: every session keeps one, and shares the methods. */
class Retries implements RetryDetector {
  /**
   * The step each hash was last seen at (a key table, not a `Map`: ~0.2 KB less an active disjoint session of the
   * memory bench, bench/README.md "mem18"). Hashed over every character: a client that could grind hashes to share
   * the sampled characters gains nothing.
   */
  private lastSeen: KeyTable;
  private readonly changes = createChangeLog();

  /** `expected`: the states the session is expected to reach (0: unknown), for the first table's size ({@link hashSlots}). */
  constructor(expected: number) {
    this.lastSeen = new KeyTable(hashSlots(expected, HISTORY_SLOTS), 'any');
  }

  add(state: State): number | undefined {
    if (state.kind === 'finish') this.lastSeen = new KeyTable(HISTORY_SLOTS, 'any');
    if (REPEAT_EXEMPT_KINDS.has(state.kind)) {
      this.changes.record(state);
      return undefined;
    }
    // One probe reads the previous step and sets this one (a variant is set too, and repeats nothing).
    const seen = this.lastSeen.swap(state.hash, state.t);
    const prev = state.variant === true ? undefined : seen;
    const retryOf = prev !== undefined && !this.changes.changedSince(state, prev) ? prev : undefined;
    if (retryOf === undefined) this.changes.record(state);
    return retryOf;
  }
}
