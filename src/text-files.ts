/** Reading a user-named file as text: any failure is a one-line `SteplensError` naming the file. */
import { readFile } from 'node:fs/promises';
import { SteplensError } from './errors.js';

/** Reads a file as UTF-8 text, naming the file in any error. */
export async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : code;
    throw new SteplensError('bad_input', `cannot read ${file}: ${why}`);
  }
}
