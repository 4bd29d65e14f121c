/**
 * Growth of a task's PTA in Redis: a compare-and-set script (the new version is written only if the task is
 * still at the version it was built from; otherwise it is rebuilt from the newer one and tried again), so
 * replicas learning the same task at once lose no reference. A growth stores only the reference's states,
 * until they outweigh the chain's PTA: then the next version starts a new chain (its PTA JSON sent in
 * pieces: chain-stage.ts) and the replaced one is kept for `keepVersionsMs`, so sessions scored against its
 * versions can still be rebuilt on another replica. One replica's growths of a task are also queued
 * locally, to spare retries. The PTA a growth built is what this replica then serves for that version: a
 * reader that sees the version in Redis before the growth's answer arrives waits for that answer rather
 * than reading back (and parsing: 600 ms for 16 MB) what this replica itself just wrote.
 */
import { DEFAULT_PTA_LIMITS, growWithinSteps, knownPtaJsonBytes, type PtaLimits } from '../../core/pta/index.js';
import type { Pta } from '../../core/scorer-api.js';
import type { State } from '../../core/types.js';
import { SteplensError } from '../../errors.js';
import { measurePtaInSlices, runInSteps, statesJsonInSlices } from '../pta-text.js';
import type { Contribution, RemovedPta } from '../store-port.js';
import { removeChain, type RemovalHost } from './chain-removal.js';
import { stageChainJson } from './chain-stage.js';
import { GROWTH_RECORD_MS, runGrowth } from './unanswered.js';
import { deltaText, type Entry } from './pta-chains.js';
import { GROW_CHAIN, GROW_DELTA } from './pta-scripts.js';

/** What a growth needs of the store it grows (a removal's needs, and more). */
export interface GrowthHost extends RemovalHost {
  /** The cache key of a task's version (in the epoch last read). */
  cacheKey(task: string, version: number): string;
  /** A cached version by its cache key, without touching the cache's order. */
  cached(key: string): Entry | undefined;
  /** A version this replica wrote: cached, and the task's version seen. */
  stored(task: string, key: string, entry: Entry): void;
  /** The version the task's PTA was last removed at (0: never), read when the task has none. */
  removedAt(task: string): Promise<number>;
}

export interface GrowthOptions {
  limits?: PtaLimits;
  /** A replaced chain of PTA versions stays readable this long (default 35 min: a session's lifetime). */
  keepVersionsMs?: number;
  /** Versions one chain holds at most before the next starts a new chain (default 256). */
  maxChainVersions?: number;
  /** A new chain's PTA JSON longer than this (characters) is sent in pieces of this size (default chain-stage.ts' STAGE_PIECE_CHARS: 256 Ki). */
  pieceChars?: number;
}

const MAX_GROW_ATTEMPTS = 50;
/** How long a replaced (or removed) chain stays readable by default: a session's lifetime. */
const KEEP_VERSIONS_MS = 35 * 60_000;
/** A chain's added states may weigh as much as its PTA, and at least this much, before a new chain starts. */
const MIN_CHAIN_DELTA_BYTES = 1024 * 1024;

export class ChainGrowth {
  readonly limits: PtaLimits;
  private readonly locks = new Map<string, Promise<unknown>>();
  /** Versions being written by this replica, by cache key: settled once the growth's answer is handled. */
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    private readonly host: GrowthHost,
    private readonly options: GrowthOptions = {},
  ) {
    this.limits = options.limits ?? DEFAULT_PTA_LIMITS;
  }

  /** Settles once this replica's growth writing the version under `key` has been answered; undefined when none is. */
  written(key: string): Promise<void> | undefined {
    return this.writing.get(key);
  }

  add(task: string, states: readonly State[], contribution?: Contribution): Promise<Pta> {
    return this.queued(task, () => this.grow(task, states, contribution));
  }

  /** Removes the task's PTA (chain-removal.ts), queued behind this replica's growths of the task. */
  remove(task: string): Promise<RemovedPta | undefined> {
    return this.queued(task, () => removeChain(this.host, task, this.options.keepVersionsMs ?? KEEP_VERSIONS_MS));
  }

  /** Runs `op` after this replica's earlier growths and removals of the task (spares compare-and-set retries). */
  private queued<T>(task: string, op: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(task) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(op);
    this.locks.set(task, run);
    const release = (): void => {
      if (this.locks.get(task) === run) this.locks.delete(task);
    };
    run.then(release, release);
    return run;
  }

  /** Waits for every queued growth. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.locks.values()]);
  }

  private async grow(task: string, input: readonly State[], contribution: Contribution | undefined): Promise<Pta> {
    const { link, keys } = this.host;
    // The states as every replica will read them back (JSON), so each builds the very same version.
    const read = await statesJsonInSlices(input);
    if (!read.ok) throw new SteplensError('bad_input', `task ${task}: the reference cannot be stored: ${read.error}`);
    const { json, states } = read.value;
    const delta = deltaText(json, contribution?.by);
    const deltaBytes = Buffer.byteLength(delta);
    let newChain = false;
    for (let attempt = 0; attempt < MAX_GROW_ATTEMPTS; attempt++) {
      const at = await this.host.lookup(task);
      const version = at?.version ?? 0;
      const current = at === undefined ? undefined : await this.host.ptaAt(task, at.version, at.chain);
      if (version !== 0 && current === undefined) continue; // its chain expired meanwhile
      // A task whose PTA was removed starts again past the removed version (the script checks it is still so).
      const removed = at === undefined ? await this.host.removedAt(task) : 0;
      contribution?.check?.(current, states);
      if (current !== undefined) await measurePtaInSlices(current);
      const grown = await runInSteps(growWithinSteps(task, current, states, this.limits, contribution?.by, removed));
      if (!grown.ok) throw new SteplensError('too_large', grown.error);
      const next = grown.value;
      const settle = contribution?.admit?.(await measurePtaInSlices(next), current === undefined ? 0 : await measurePtaInSlices(current));
      let stored = false;
      const key = this.host.cacheKey(task, next.version);
      let answered!: () => void;
      const done = new Promise<void>((resolve) => (answered = resolve));
      this.writing.set(key, done);
      try {
        const chain = version === 0 ? undefined : this.host.cached(this.host.cacheKey(task, version))?.chain;
        const asDelta =
          !newChain && chain !== undefined && next.version - chain.start < (this.options.maxChainVersions ?? 256) && chain.deltaBytes + deltaBytes <= Math.max(chain.ptaBytes, MIN_CHAIN_DELTA_BYTES);
        let entry: Entry;
        let answer: unknown;
        if (asDelta) {
          const list = keys.chain(task, chain.start);
          answer = await runGrowth(link, keys, task, version, (r, record) =>
            GROW_DELTA.run(r, [keys.tasks, keys.chains, list, record, keys.indexOf(task)], [task, version, next.version, delta, chain.start, keys.grown, GROWTH_RECORD_MS]),
          );
          entry = { pta: next, bytes: knownPtaJsonBytes(next) ?? chain.ptaBytes + chain.deltaBytes + deltaBytes, chain: { ...chain, deltaBytes: chain.deltaBytes + deltaBytes } };
        } else {
          const text = await stageChainJson(link, keys, next, this.options.pieceChars);
          const list = keys.chain(task, next.version);
          const replaced = chain !== undefined ? keys.chain(task, chain.start) : version === 0 ? list : keys.pta(task, version);
          const keep = this.options.keepVersionsMs ?? KEEP_VERSIONS_MS;
          const staged = text.stage === undefined ? [] : [text.stage];
          answer = await runGrowth(link, keys, task, version, (r, record) =>
            GROW_CHAIN.run(
              r,
              [keys.tasks, keys.chains, list, replaced, record, keys.removed, keys.indexOf(task), ...staged],
              [task, version, next.version, text.json, keep, keys.grown, GROWTH_RECORD_MS, text.stage === undefined ? 0 : text.bytes, keys.removedField(task)],
            ),
          );
          const stage = text.stage;
          if (answer !== 'ok' && stage !== undefined) void link.run('grow_stage', (r) => r.del(stage)).catch(() => undefined);
          entry = { pta: next, bytes: text.bytes, chain: { start: next.version, ptaBytes: text.bytes, deltaBytes: 0 } };
        }
        if (answer === 'ok') {
          this.host.stored(task, key, entry);
          stored = true;
          return next;
        }
        // 'removed': removed since it was looked up: built again past the removed version.
        if (answer === 'broken') newChain = true;
        else if (answer !== 'unstaged' && answer !== 'removed') this.host.see(task, Number(answer));
      } finally {
        if (this.writing.get(key) === done) this.writing.delete(key);
        answered();
        // A compare-and-set miss is tried again (and admitted again) on the newer version.
        settle?.(stored);
      }
    }
    throw new SteplensError('unavailable', `task ${task}: ${MAX_GROW_ATTEMPTS} concurrent growths in a row; try again`);
  }
}
