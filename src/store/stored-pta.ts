/**
 * Reading a folder of stored PTAs, the layout the file store writes (one `<task>.json` per task, see
 * file-names.ts): shared by the file store, the Redis store's seeding and `report --references`.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ptaFromJson } from '../core/pta/index.js';
import type { Pta } from '../core/scorer-api.js';
import { err, type Result } from '../errors.js';
import { taskFromFileName } from './file-names.js';

/** The task files of a folder, task → path, in sorted name order; throws as `readdir` does. */
export async function storedTaskFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const name of (await readdir(dir)).sort()) {
    const task = taskFromFileName(name);
    if (task !== undefined) files.set(task, path.join(dir, name));
  }
  return files;
}

/** A stored PTA's text, checked: a PTA, and of the task its file name says. */
export function parseStoredPta(text: string, file: string, task: string): Result<Pta, string> {
  const parsed = ptaFromJson(text);
  if (!parsed.ok) return err(`stored PTA ${file} is unreadable: ${parsed.error}`);
  if (parsed.value.task !== task) return err(`stored PTA ${file} holds task '${parsed.value.task}', expected '${task}'`);
  return parsed;
}
