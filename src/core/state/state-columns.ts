/**
 * The states a scorer keeps, in columns instead of one object per state: a
 * state object costs ~140 B on the heap (header and 11-16 fields of 8 bytes);
 * here a state is one number (a code of stage, kind, flags and the tool's
 * index in a per-store table, since a run uses a handful of tools, and above it the cost when that is a
 * small whole number, as it almost always is; its t is its position, kept aside only when it is not; its file, when
 * it has one, is an index in a per-store table of the files too) and one pointer to already pooled strings and token
 * arrays (hash and tokens in one), and for the
 * states with a line range or a scope (about a fifth) these aside (~57 B a
 * state with the arrays' spare room). `at` and `all` rebuild states equal to the ones
 * stored, with the same keys in the same order (so they serialise alike), and
 * sharing the same pooled strings, token arrays and ranges.
 */
import type { ActionKind, LineRange, Stage, State } from '../types.js';
import { record } from './state-record.js';
import { NO_TOKENS, tokensHash } from './terminal-facts.js';
import { appended, nextRoom, nextRoomToward, ROOM_MAX, withNumberRoom, withRoom } from '../memory/small-arrays.js';

const STAGES: readonly Stage[] = ['E', 'I', 'V', 'O'];
const STAGE_CODE: Record<Stage, number> = { E: 0, I: 1, V: 2, O: 3 };
/** Every action kind, in a fixed order (the record makes the list exhaustive). */
const KIND_CODE: Record<ActionKind, number> = {
  read: 0,
  search: 1,
  list: 2,
  edit: 3,
  create: 4,
  run_test: 5,
  run_script: 6,
  run_other: 7,
  vcs: 8,
  install: 9,
  housekeeping: 10,
  think: 11,
  finish: 12,
  message: 13,
  none: 14,
  other: 15,
};
const KINDS = Object.keys(KIND_CODE) as ActionKind[];

// The code column: stage in bits 0-1, kind in bits 2-5, one bit per flag, then the tool's index.
const KIND_SHIFT = 2;
const COMMAND = 1 << 6;
const CHANGES_FILE = 1 << 7;
const FAILED = 1 << 8;
const UNKNOWN = 1 << 9;
const CHANGES_ENV = 1 << 10;
const VARIANT = 1 << 11;
const TOOL_SHIFT = 12;
/** Tools named by index; a state of a further distinct tool has this index and its tool in `otherTools`. */
const MAX_TOOLS = 255;
/** The state has a range or a scope (a minority: kept aside in `extras`). */
const EXTRA = 1 << 20;
/** The state's cost is kept aside in `otherCost` (it is not a whole number in [0, {@link MAX_PACKED_COST}]). */
const COST_ASIDE = 1 << 21;
/**
 * The file's place in `files` plus one (0: the state has no file), in the bits from here: a pointer a state less
 * (~0.8 KB of a 100-step session, bench/README.md "Memory per session, thirteenth pass"); a run names a few dozen files.
 */
const FILE_SHIFT = 22;
/** Files named by index; a state of a further distinct file has this index and its file in `otherFiles`. */
const MAX_FILES = 255;
/** The code's bits: the cost is packed above them, `code + COST_UNIT * cost`, exact while below 2^53. */
const COST_UNIT = 2 ** 30;
/** 2^23 - 1 (~8.4M tokens a step; a log's own counts beyond it are kept aside). */
const MAX_PACKED_COST = 2 ** 53 / COST_UNIT - 1;

/**
 * Pointer fields per state in `refs`: hash and tokens as one (see {@link hashAndTokens}). A state holds its
 * hash and its token array, and one names the other: a non-terminal state's tokens are {@link NO_TOKENS}, so its
 * hash is kept; a terminal state's token array is its command's facts' and knows their hash, so it is kept.
 */
const REFS = 1;

/** The hash and tokens of a state that neither names (states not made by the state builder). */
class HashAndTokens {
  constructor(
    readonly hash: string,
    readonly tokens: string[],
  ) {}
}

function hashAndTokens(s: State): string | string[] | HashAndTokens {
  if (s.tokens === NO_TOKENS) return s.hash;
  return tokensHash(s.tokens) === s.hash ? s.tokens : new HashAndTokens(s.hash, s.tokens);
}

/** An append-only store of states in columns. */
export class StateColumns {
  /**
   * Code and cost of each state in one unboxed double (`code + COST_UNIT * cost`): a second double a state was
   * ~0.8 KB of a 100-step session (bench/README.md, "Memory per session, eighth pass").
   */
  private nums: number[] = [];
  /** Costs that do not pack (fractional, negative, -0, huge: only from a log's own token counts), by position. */
  private otherCost: Map<number, number> | undefined;
  /** t of the states whose t is not their position, by position (the server's never are). */
  private otherT: Map<number, number> | undefined;
  private refs: unknown[] = [];
  /** Position, range and scope of each state that has a range or a scope, by position. */
  private extras: unknown[] = [];
  private tools: string[] = [];
  /** The distinct files of the states, in order of first use (a state's file is its index here plus one). */
  private files: string[] = [];
  private otherFiles: Map<number, string> | undefined;
  /** States `nums` (and `refs`, {@link REFS} a state) have room for ({@link withRoom}). */
  private room = 0;
  private otherTools: Map<number, string> | undefined;

  /** `expected`: the states the session is expected to reach (its reference runs' median, 0: unknown): the columns grow toward it ({@link nextRoomToward}). */
  constructor(private readonly expected = 0) {}

  get length(): number {
    return this.nums.length;
  }

  /** Appends a state (as built by `stateRecord`: its strings and range already pooled). */
  push(s: State): void {
    const n = this.nums.length;
    if (n === this.room && n < ROOM_MAX) {
      this.room = nextRoomToward(n, this.expected);
      this.nums = withNumberRoom(this.nums, this.room);
      this.refs = withRoom(this.refs, REFS * this.room);
    }
    let code = STAGE_CODE[s.stage] | (KIND_CODE[s.kind] << KIND_SHIFT);
    if (s.command) code |= COMMAND;
    if (s.changesFile) code |= CHANGES_FILE;
    if (s.failed) code |= FAILED;
    if (s.unknown) code |= UNKNOWN;
    if (s.changesEnv === true) code |= CHANGES_ENV;
    if (s.variant === true) code |= VARIANT;
    code |= this.toolIndex(s.tool) << TOOL_SHIFT;
    if (s.file !== undefined) code |= this.fileIndex(s.file) << FILE_SHIFT;
    if (s.range !== undefined || s.scope !== undefined) {
      code |= EXTRA;
      this.extras.push(this.length, s.range, s.scope);
    }
    if (!Object.is(s.t, this.length)) (this.otherT ??= new Map()).set(this.length, s.t);
    const cost = s.cost;
    if (Number.isInteger(cost) && cost >= 0 && cost <= MAX_PACKED_COST && !Object.is(cost, -0)) this.nums.push(code + COST_UNIT * cost);
    else {
      (this.otherCost ??= new Map()).set(this.length, cost);
      this.nums.push(code | COST_ASIDE);
    }
    this.refs.push(hashAndTokens(s));
  }

  /**
   * No state is expected soon (an idle session): the columns drop the spare room their growth left (a pushed-to array
   * keeps up to half its length spare: ~0.8 KB of a 100-step session's ~5). The next push grows them again.
   */
  trim(): void {
    this.nums = this.nums.slice();
    this.refs = this.refs.slice();
    this.extras = this.extras.slice();
    this.room = this.nums.length;
  }

  /** The session ended: the columns, kept for its views, drop the room a jump toward `expected` left past {@link nextRoom}'s (a session that ended short). */
  release(): void {
    if (this.room > nextRoom(this.length)) this.trim();
  }

  private toolIndex(tool: string): number {
    const i = this.tools.indexOf(tool);
    if (i >= 0) return i;
    if (this.tools.length < MAX_TOOLS) {
      this.tools = appended(this.tools, tool);
      return this.tools.length - 1;
    }
    (this.otherTools ??= new Map()).set(this.length, tool);
    return MAX_TOOLS;
  }

  /** `file`'s place in `files` plus one, or {@link MAX_FILES} with the file aside once the table is full. */
  private fileIndex(file: string): number {
    const files = this.files;
    const i = files.indexOf(file);
    if (i >= 0) return i + 1;
    if (files.length < MAX_FILES - 1) {
      this.files = appended(files, file);
      return this.files.length;
    }
    (this.otherFiles ??= new Map()).set(this.length, file);
    return MAX_FILES;
  }

  /** The file of state `i` whose code is `code`. */
  private fileOf(i: number, code: number): string | undefined {
    const fi = (code >>> FILE_SHIFT) & MAX_FILES;
    return fi === 0 ? undefined : fi === MAX_FILES ? this.otherFiles!.get(i)! : this.files[fi - 1]!;
  }

  /** The state at position `i` (0-based), or undefined past the end. */
  at(i: number): State | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) return undefined;
    const packed = this.nums[i]!;
    const code = packed % COST_UNIT;
    const r = REFS * i;
    const refs = this.refs;
    const ht = refs[r] as string | string[] | HashAndTokens;
    const ti = (code >>> TOOL_SHIFT) & 255;
    const x = (code & EXTRA) !== 0 ? this.extraOf(i) : -1;
    const s = record(
      {
        t: this.otherT?.get(i) ?? i,
        stage: STAGES[code & 3]!,
        kind: KINDS[(code >> KIND_SHIFT) & 15]!,
        tool: ti === MAX_TOOLS ? this.otherTools!.get(i)! : this.tools[ti]!,
        hash: typeof ht === 'string' ? ht : Array.isArray(ht) ? tokensHash(ht)! : ht.hash,
        tokens: typeof ht === 'string' ? (NO_TOKENS as string[]) : Array.isArray(ht) ? ht : ht.tokens,
        command: (code & COMMAND) !== 0,
        changesFile: (code & CHANGES_FILE) !== 0,
        failed: (code & FAILED) !== 0,
        cost: (code & COST_ASIDE) !== 0 ? this.otherCost!.get(i)! : (packed - code) / COST_UNIT,
        unknown: (code & UNKNOWN) !== 0,
      },
      this.fileOf(i, code),
      x < 0 ? undefined : (this.extras[x + 1] as LineRange | undefined),
      x < 0 ? undefined : (this.extras[x + 2] as string | undefined),
    );
    if ((code & CHANGES_ENV) !== 0) s.changesEnv = true;
    if ((code & VARIANT) !== 0) s.variant = true;
    return s;
  }

  /** The stage of state `i` alone, without rebuilding the state (the session list's recent stages); undefined past the end. */
  stageAt(i: number): Stage | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) return undefined;
    return STAGES[(this.nums[i]! % COST_UNIT) & 3];
  }

  /** Where state `i`'s entry starts in `extras` (binary search: positions ascend). */
  private extraOf(i: number): number {
    const x = this.extras;
    let lo = 0;
    let hi = x.length / 3 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = x[3 * mid] as number;
      if (at === i) return 3 * mid;
      if (at < i) lo = mid + 1;
      else hi = mid - 1;
    }
    throw new Error(`state columns: no range or scope kept for state ${i}`);
  }

  /** Every state, in order (new objects on each call). */
  all(): State[] {
    const out = new Array<State>(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.at(i)!;
    return out;
  }
}
