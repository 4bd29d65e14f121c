/** Seed directories (`<task>.json` PTA files, as the file store writes them) read and imported into Redis. */
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ptaFromJson } from '../../core/pta/index.js';
import type { Pta } from '../../core/scorer-api.js';
import { SteplensError } from '../../errors.js';
import { taskFromFileName } from '../file-names.js';
import { removalMarkerOf } from '../pta-files.js';
import { stageChainJson } from './chain-stage.js';
import type { RedisKeys } from './keys.js';
import type { RedisLink } from './link.js';
import { GROW_CHAIN, SET_EPOCH } from './pta-scripts.js';
import { GROWTH_RECORD_MS } from './unanswered.js';

/** Every readable seed PTA, one per task (the first directory holding a task wins); problems are warnings. */
export async function readSeedPtas(dirs: readonly string[], warn: (message: string) => void = () => undefined): Promise<Pta[]> {
  const out = new Map<string, Pta | undefined>();
  for (const dir of dirs) {
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch (error) {
      warn(`seed directory ${dir} is unreadable: ${(error as Error).message}`);
      continue;
    }
    for (const name of names) {
      const task = taskFromFileName(name);
      if (task === undefined || out.has(task)) continue;
      const file = path.join(dir, name);
      const text = await readFile(file, 'utf8');
      // A file store's removed task (its removal marker): no PTA, and it hides the task in later folders, as in the file store.
      if (text.length < 4096 && removalMarkerOf(parseOrUndefined(text))?.task === task) {
        out.set(task, undefined);
        continue;
      }
      const parsed = ptaFromJson(text);
      if (!parsed.ok) warn(`seed ${file} is unreadable: ${parsed.error}`);
      else if (parsed.value.task !== task) warn(`seed ${file} holds task '${parsed.value.task}', expected '${task}'`);
      else out.set(task, parsed.value);
    }
  }
  return [...out.values()].filter((pta) => pta !== undefined);
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Imports the seed PTAs for tasks Redis does not hold (the others are left alone, and so are tasks removed at the
 * seed's version or later: pta-scripts.ts, GROW_CHAIN), then sets the epoch (keys.ts)
 * unless another replica did; answers the epoch Redis holds.
 */
export async function importSeeds(link: RedisLink, keys: RedisKeys, dirs: readonly string[], options: { pieceChars?: number; warn?: (message: string) => void }): Promise<string> {
  for (const pta of await readSeedPtas(dirs, options.warn)) {
    const text = await stageChainJson(link, keys, pta, options.pieceChars);
    const chain = keys.chain(pta.task, pta.version);
    const record = keys.growth(randomUUID());
    const staged = text.stage === undefined ? [] : [text.stage];
    const answer = await link.run('seed', (r) =>
      GROW_CHAIN.run(
        r,
        [keys.tasks, keys.chains, chain, chain, record, keys.removed, keys.indexOf(pta.task), ...staged],
        [pta.task, 0, pta.version, text.json, 0, keys.grown, GROWTH_RECORD_MS, text.stage === undefined ? 0 : text.bytes, keys.removedField(pta.task)],
      ),
    );
    if (answer === 'unstaged') throw new SteplensError('unavailable', `seed ${pta.task}: its staged JSON expired before it was stored`);
    // Held already (answered its version): the stage is not needed.
    if (answer !== 'ok' && text.stage !== undefined) await link.run('seed', (r) => r.del(text.stage!));
  }
  return String(await link.run('seed', (r) => SET_EPOCH.run(r, [keys.epoch], [randomUUID()])));
}
