/**
 * The memo of a structural reference: which PTA nodes a candidate state is equivalent to, by every field
 * {@link equivalent} reads from the candidate. Looked up without building a key: states are bucketed by their
 * content hash (pooled strings) and told apart within a bucket by comparing the other fields, so a hit allocates
 * nothing (a string key of the fields cost about 0.3 KB a step). First in, first out past either bound.
 */
import type { State } from '../types.js';

/** Ids of token arrays: states of a repeated command share one frozen array (src/core/state/terminal-facts.ts). */
const tokenIds = new WeakMap<readonly string[], number>();
let nextTokenId = 0;

/** Tokens by array identity (equal arrays may miss, never collide), without keeping the arrays alive. */
function tokensId(tokens: readonly string[]): number {
  let id = tokenIds.get(tokens);
  if (id === undefined) {
    id = nextTokenId++;
    tokenIds.set(tokens, id);
  }
  return id;
}

/** A memoised candidate: the fields `equivalent` reads (the hash is its bucket's), and its adjacent nodes. */
interface Entry {
  readonly hash: string;
  readonly stage: string;
  readonly file: string | undefined;
  readonly scope: string | undefined;
  readonly from: number | undefined;
  readonly to: number | undefined;
  /** Id of the token array of a command state, -1 for any other. */
  readonly tokens: number;
  readonly list: readonly number[];
}

export class AdjacencyMemo {
  private readonly byHash = new Map<string, Entry[]>();
  /** Entries oldest first from `head` (taken ones are cleared; the array is compacted once half of it is). */
  private order: Array<Entry | undefined> = [];
  private head = 0;
  private count = 0;
  private indices = 0;

  /** `maxEntries` candidates and `maxIndices` node indices over all of them are kept at most (the last one always). */
  constructor(
    private readonly maxEntries: number,
    private readonly maxIndices: number,
  ) {}

  get size(): number {
    return this.count;
  }

  /** The memoised adjacent nodes of `s`, or undefined. */
  get(s: State): readonly number[] | undefined {
    const bucket = this.byHash.get(s.hash);
    if (bucket === undefined) return undefined;
    const tokens = s.command ? tokensId(s.tokens) : -1;
    const from = s.range?.[0];
    const to = s.range?.[1];
    for (const e of bucket) {
      if (e.stage === s.stage && e.file === s.file && e.scope === s.scope && e.from === from && e.to === to && e.tokens === tokens) return e.list;
    }
    return undefined;
  }

  /** Remembers `list` for `s` (not memoised yet: see {@link get}), then drops the oldest entries past the bounds. */
  set(s: State, list: readonly number[]): void {
    const e: Entry = { hash: s.hash, stage: s.stage, file: s.file, scope: s.scope, from: s.range?.[0], to: s.range?.[1], tokens: s.command ? tokensId(s.tokens) : -1, list };
    const bucket = this.byHash.get(s.hash);
    if (bucket === undefined) this.byHash.set(s.hash, [e]);
    else bucket.push(e);
    this.order.push(e);
    this.count++;
    this.indices += list.length;
    while (this.count > 1 && (this.count > this.maxEntries || this.indices > this.maxIndices)) this.dropOldest();
  }

  private dropOldest(): void {
    const old = this.order[this.head]!;
    this.order[this.head++] = undefined;
    const bucket = this.byHash.get(old.hash)!;
    if (bucket.length === 1) this.byHash.delete(old.hash);
    else bucket.splice(bucket.indexOf(old), 1);
    this.count--;
    this.indices -= old.list.length;
    if (this.head > 1024 && 2 * this.head > this.order.length) {
      this.order = this.order.slice(this.head);
      this.head = 0;
    }
  }
}
