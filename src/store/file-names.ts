/**
 * Safe file names for task ids: one `<name>.json` per task. Letters, digits,
 * `_`, `-` and inner `.` are kept (so `django__django-11099` stays readable);
 * every other byte is `%XX`-escaped, so names never hold separators, never
 * start with a dot and map back to the task id exactly.
 */

const KEEP = /[A-Za-z0-9_-]/;
export const PTA_SUFFIX = '.json';

/** The file name (no directory) holding a task's PTA. */
export function taskFileName(task: string): string {
  let out = '';
  const chars = Array.from(task);
  chars.forEach((ch, i) => {
    if (KEEP.test(ch) || (ch === '.' && i > 0)) out += ch;
    else for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  });
  return `${out}${PTA_SUFFIX}`;
}

/** The task id a file name holds, or undefined when it is not a task file name. */
export function taskFromFileName(name: string): string | undefined {
  if (!name.endsWith(PTA_SUFFIX) || name.startsWith('.')) return undefined;
  const stem = name.slice(0, -PTA_SUFFIX.length);
  if (stem.length === 0 || !/^(?:[A-Za-z0-9_.-]|%[0-9A-F]{2})+$/.test(stem)) return undefined;
  try {
    const task = decodeURIComponent(stem);
    return taskFileName(task) === name ? task : undefined;
  } catch {
    return undefined;
  }
}
