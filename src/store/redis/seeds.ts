/** Reading seed directories (`<task>.json` PTA files, as the file store writes them) for import into Redis. */
import { readFile } from 'node:fs/promises';
import type { Pta } from '../../core/scorer-api.js';
import { parseStoredPta, storedTaskFiles } from '../stored-pta.js';

/** Every readable seed PTA, one per task (the first directory holding a task wins); problems are warnings. */
export async function readSeedPtas(dirs: readonly string[], warn: (message: string) => void = () => undefined): Promise<Pta[]> {
  const out = new Map<string, Pta>();
  for (const dir of dirs) {
    let files: Map<string, string>;
    try {
      files = await storedTaskFiles(dir);
    } catch (error) {
      warn(`seed directory ${dir} is unreadable: ${(error as Error).message}`);
      continue;
    }
    for (const [task, file] of files) {
      if (out.has(task)) continue;
      const parsed = parseStoredPta(await readFile(file, 'utf8'), file, task);
      if (!parsed.ok) warn(`seed: ${parsed.error}`);
      else out.set(task, parsed.value);
    }
  }
  return [...out.values()];
}
