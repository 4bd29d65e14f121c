/**
 * Safe file names for task ids: one `<name>.json` per task. Letters, digits,
 * `_`, `-` and inner `.` are kept (so `django__django-11099` stays readable);
 * every other byte is `%XX`-escaped, so names never hold separators, never
 * start with a dot and map back to the task id exactly.
 *
 * An id whose escaped name would pass {@link MAX_NAME_BYTES} (filesystems take
 * 255 bytes, and the atomic writer adds its own suffix) gets a hashed name:
 * a readable prefix, `~` (which the escape never yields) and 32 hex digits of
 * SHA-256 of the id. Such a name does not give the id back; the store reads it
 * from the file. Names written by older versions (the escape, however long)
 * still read back with {@link taskFromFileName}.
 */
import { createHash } from 'node:crypto';

const KEEP = /[A-Za-z0-9_-]/;
export const PTA_SUFFIX = '.json';
/** Longest task file name written, in bytes. */
export const MAX_NAME_BYTES = 160;
/** Bytes of the readable prefix of a hashed name. */
const HASHED_PREFIX_BYTES = 100;
const HASHED = /^(?:[A-Za-z0-9_.-]|%[0-9A-F]{2})*~[0-9a-f]{32}\.json$/;

function escaped(task: string): string {
  let out = '';
  const chars = Array.from(task);
  chars.forEach((ch, i) => {
    if (KEEP.test(ch) || (ch === '.' && i > 0)) out += ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  });
  return out;
}

/** The file name (no directory) holding a task's PTA. */
export function taskFileName(task: string): string {
  const readable = `${escaped(task)}${PTA_SUFFIX}`;
  if (readable.length <= MAX_NAME_BYTES) return readable;
  // UTF-16 code units hashed, so ids that differ only in unpaired surrogates still differ.
  const digest = createHash('sha256').update(Buffer.from(task, 'utf16le')).digest('hex').slice(0, 32);
  let prefix = readable.slice(0, HASHED_PREFIX_BYTES);
  const cut = prefix.lastIndexOf('%');
  if (cut > prefix.length - 3) prefix = prefix.slice(0, cut);
  return `${prefix}~${digest}${PTA_SUFFIX}`;
}

/** The task id a readable file name holds, or undefined when it is not one (hashed names included). */
export function taskFromFileName(name: string): string | undefined {
  if (!name.endsWith(PTA_SUFFIX) || name.startsWith('.')) return undefined;
  const stem = name.slice(0, -PTA_SUFFIX.length);
  if (stem.length === 0 || !/^(?:[A-Za-z0-9_.-]|%[0-9A-F]{2})+$/.test(stem)) return undefined;
  try {
    const task = decodeURIComponent(stem);
    return escaped(task) === stem ? task : undefined;
  } catch {
    return undefined;
  }
}

/** True for a hashed task file name (its task is in the file). */
export function isHashedFileName(name: string): boolean {
  return HASHED.test(name);
}
