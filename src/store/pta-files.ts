/**
 * Reading one file of a reference directory and telling what it is: a PTA of the expected task, one of
 * ours that is broken (truncated, wrong schema: moved aside so the task falls back to the prior and a new
 * reference can be learned), or a file that is not ours (skipped, left where it is: notes, a sources list).
 */
import { readFile, rename, stat } from 'node:fs/promises';
import { isRecord } from '../core/json-value.js';
import { ptaFromJson } from '../core/pta/index.js';
import { PTA_SCHEMA_VERSION, type Pta } from '../core/scorer-api.js';
import { inputLimit, sizeText } from '../text-files.js';
import { ptaFromJsonInSlices } from './pta-text.js';

/**
 * A PTA file larger than this is parsed a slice of nodes at a time first (pta-text.ts), the event loop turning in
 * between: read back on a cache miss (after a restart, or once the cache let it go), a tenant's 8.9 MB PTA parsed
 * in one go held the server 0.7-2.2 s. A file the sliced parse refuses is read whole as before, so what a broken or
 * foreign file is said to be does not change.
 */
const SLICED_BYTES = 1024 * 1024;

export type PtaFile =
  | { kind: 'pta'; pta: Pta; bytes: number }
  /** A removed task's file (a removal marker): the task has no PTA, its next one is `version` + 1. */
  | { kind: 'removed'; task: string; version: number }
  /** Written by steplens (it starts like a PTA, or has a PTA's keys) but unusable. */
  | { kind: 'broken'; why: string }
  /** Not a PTA file at all. */
  | { kind: 'foreign'; why: string };

/**
 * What a task's file holds once its PTA is removed (the file store's `remove`): written over the PTA in one atomic
 * rename, so no crash leaves both or neither; it hides a seed of the task, and keeps the version removed so the
 * task's next PTA is numbered past it (a version names one PTA for good).
 */
export function removalMarkerJson(task: string, version: number): string {
  return JSON.stringify({ schema: PTA_SCHEMA_VERSION, task, removed: version });
}

/** The task and version of a removal marker ({@link removalMarkerJson}); undefined for anything else. */
export function removalMarkerOf(doc: unknown): { task: string; version: number } | undefined {
  if (!isRecord(doc) || Object.keys(doc).length !== 3 || doc.schema !== PTA_SCHEMA_VERSION) return undefined;
  const { task, removed } = doc;
  return typeof task === 'string' && typeof removed === 'number' && Number.isSafeInteger(removed) && removed > 0 ? { task, version: removed } : undefined;
}

/** What a PTA file starts with (`ptaToJson` writes `schema` first). */
const PTA_START = /^\s*\{\s*"schema"\s*:/;

function isOurs(text: string, doc: unknown): boolean {
  if (PTA_START.test(text)) return true;
  return typeof doc === 'object' && doc !== null && !Array.isArray(doc) && 'task' in doc && 'nodes' in doc;
}

/**
 * Reads and classifies `file`. `accepts(task)` says whether the PTA's own `task` belongs under this name
 * (a readable name must hold that very task; a hashed one, a task whose name it is).
 */
export async function readPtaFile(file: string, accepts: (task: string) => boolean): Promise<PtaFile> {
  // A reference folder may be anyone's (`report --references DIR`): a FIFO there would block the read, a
  // device never end, a huge file take the process down. Such files are not ours: skipped, left alone.
  const info = await stat(file);
  if (!info.isFile()) return { kind: 'foreign', why: 'not a regular file' };
  if (info.size > inputLimit()) return { kind: 'foreign', why: `${info.size} bytes, over the input limit of ${sizeText(inputLimit())} (STEPLENS_MAX_INPUT_BYTES)` };
  const text = await readFile(file, 'utf8');
  if (text.length > SLICED_BYTES) {
    const sliced = await ptaFromJsonInSlices(text);
    if (sliced.ok && accepts(sliced.value.task)) return { kind: 'pta', pta: sliced.value, bytes: Buffer.byteLength(text) };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const why = `invalid JSON (${(error as Error).message})`;
    return PTA_START.test(text) ? { kind: 'broken', why: `truncated or corrupt: ${why}` } : { kind: 'foreign', why: `not a PTA: ${why}` };
  }
  const marker = removalMarkerOf(doc);
  if (marker !== undefined) {
    if (accepts(marker.task)) return { kind: 'removed', ...marker };
    return { kind: 'foreign', why: `marks task '${marker.task}' removed, which does not belong under this name` };
  }
  if (!isOurs(text, doc)) return { kind: 'foreign', why: 'not a PTA (no schema, task and nodes)' };
  const parsed = ptaFromJson(doc);
  if (!parsed.ok) return { kind: 'broken', why: parsed.error };
  if (!accepts(parsed.value.task)) return { kind: 'foreign', why: `holds the PTA of task '${parsed.value.task}', which does not belong under this name` };
  return { kind: 'pta', pta: parsed.value, bytes: Buffer.byteLength(text) };
}

/** Renames a broken file out of the way (`<name>.unreadable-<time>`, never read as a PTA again); returns the new path. */
export async function moveAside(file: string, now = new Date()): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const target = `${file}.unreadable-${stamp}`;
  await rename(file, target);
  return target;
}
