/** Reading seed directories (`<task>.json` PTA files, as the file store writes them) for import into Redis. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ptaFromJson } from '../../core/pta/index.js';
import type { Pta } from '../../core/scorer-api.js';
import { taskFromFileName } from '../file-names.js';

/** Every readable seed PTA, one per task (the first directory holding a task wins); problems are warnings. */
export async function readSeedPtas(dirs: readonly string[], warn: (message: string) => void = () => undefined): Promise<Pta[]> {
  const out = new Map<string, Pta>();
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
      const parsed = ptaFromJson(await readFile(file, 'utf8'));
      if (!parsed.ok) warn(`seed ${file} is unreadable: ${parsed.error}`);
      else if (parsed.value.task !== task) warn(`seed ${file} holds task '${parsed.value.task}', expected '${task}'`);
      else out.set(task, parsed.value);
    }
  }
  return [...out.values()];
}
