/**
 * The task files of one folder as the file store indexes them at open: in name order, each named for a task and
 * checked (task-file-check.ts); other files are warned about (naming the file) and left alone.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { PTA_SUFFIX, isHashedFileName, taskFileName, taskFromFileName } from './file-names.js';
import { checkTaskFile, type PtaEntry } from './task-file-check.js';

/** A task file found: a PTA with its bytes, or a removal marker of the task's `removed` version. */
export interface FoundTaskFile {
  file: string;
  entry: PtaEntry | { task: string; removed: number };
}

/** The PTAs and removal markers of `dir` (`dataDir`: where a broken PTA is moved aside from); a `seed` folder may be missing (warned). */
export async function* taskFilesIn(dir: string, seed: boolean, dataDir: string, warn: (message: string) => void): AsyncGenerator<FoundTaskFile> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (seed && (error as NodeJS.ErrnoException).code === 'ENOENT') return warn(`seed directory ${dir} does not exist`);
    throw error;
  }
  for (const name of names.sort()) {
    if (name.startsWith('.') || !name.endsWith(PTA_SUFFIX)) continue;
    const file = path.join(dir, name);
    const named = taskFromFileName(name);
    if (named === undefined && !isHashedFileName(name)) {
      warn(`${file}: not a task file name: skipped (left in place)`);
      continue;
    }
    const entry = await checkTaskFile(file, dataDir, warn, (task) => (named !== undefined ? task === named : taskFileName(task) === name));
    if (entry !== undefined) yield { file, entry };
  }
}
