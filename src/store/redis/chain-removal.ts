/**
 * Removal of a task's PTA from Redis, compare-and-set as growth is (chain-growth.ts): the task's current version
 * and chain are read, then a script removes exactly that version (else the version moved: read again). Its
 * chain is kept for `keep` ms, as a replaced chain is, so a session pinned to one of its versions is still rebuilt
 * on any replica; the version removed is recorded, and the task's next PTA is numbered past it (pta-scripts.ts:
 * GROW_CHAIN), so no replica's cache, no session's pin and no chain key ever means two PTAs. Left unanswered, the
 * removal is settled by its record as a growth is (unanswered.ts).
 */
import type { Pta } from '../../core/scorer-api.js';
import { SteplensError } from '../../errors.js';
import { measurePtaInSlices } from '../pta-text.js';
import type { RemovedPta } from '../store-port.js';
import type { RedisKeys } from './keys.js';
import type { RedisLink } from './link.js';
import type { Located } from './pta-chains.js';
import { REMOVE } from './pta-scripts.js';
import { GROWTH_RECORD_MS, runGrowth } from './unanswered.js';

/** What a removal needs of the store (the growth's host has it too). */
export interface RemovalHost {
  readonly link: RedisLink;
  readonly keys: RedisKeys;
  /** The task's current version and its chain, read at one instant; undefined when Redis holds no such task. */
  lookup(task: string): Promise<Located | undefined>;
  /** The task's PTA at `version` (cached, or read from `chain`). */
  ptaAt(task: string, version: number, chain?: number): Promise<Pta | undefined>;
  /** The task's version as Redis answered it. */
  see(task: string, version: number): void;
  /** This replica removed the task's PTA at `version`. */
  removed(task: string, version: number): void;
}

const MAX_REMOVE_ATTEMPTS = 50;

export async function removeChain(host: RemovalHost, task: string, keep: number): Promise<RemovedPta | undefined> {
  const { link, keys } = host;
  for (let attempt = 0; attempt < MAX_REMOVE_ATTEMPTS; attempt++) {
    const at = await host.lookup(task);
    if (at === undefined) return undefined;
    const pta = await host.ptaAt(task, at.version, at.chain);
    if (pta === undefined) continue; // its chain was replaced and expired meanwhile
    // Its bytes, for the tenant's quota (own-pta-quota.ts): known when it was written or read here.
    const bytes = await measurePtaInSlices(pta);
    const kept = at.chain !== undefined ? keys.chain(task, at.chain) : keys.pta(task, at.version);
    const answer = await runGrowth(
      link,
      keys,
      task,
      at.version,
      (r, record) =>
        REMOVE.run(r, [keys.tasks, keys.chains, keys.removed, kept, record, keys.indexOf(task)], [task, at.version, at.chain ?? '', keep, keys.grown, GROWTH_RECORD_MS, keys.removedField(task)]),
      { done: 'the PTA was removed', none: 'nothing was removed' },
    );
    if (answer === 'ok') {
      host.removed(task, at.version);
      return { version: at.version, bytes, keptMs: keep };
    }
    // Removed meanwhile (by another replica): nothing left to remove.
    if (answer === '0') return undefined;
    if (answer !== 'broken') host.see(task, Number(answer));
  }
  throw new SteplensError('unavailable', `task ${task}: ${MAX_REMOVE_ATTEMPTS} concurrent changes in a row; nothing was removed, try again`);
}
