/**
 * Reading a user-named file as text: gzip is decompressed transparently (agents' logs are often
 * stored as `run.traj.json.gz`), binary data is refused, and any failure is a one-line
 * `SteplensError` naming the file, printable (no control bytes echoed to the terminal).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { SteplensError, err, ok, type Result } from './errors.js';

/** How many leading bytes the binary check looks at (as git does). */
const SNIFF = 8000;

const isGzip = (b: Uint8Array) => b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b;

/** True when the bytes look like binary data: a NUL byte, or mostly control bytes, near the start. */
function looksBinary(b: Uint8Array): boolean {
  const n = Math.min(b.length, SNIFF);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const c = b[i]!;
    if (c === 0) return true;
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) control++;
  }
  return n > 0 && control / n > 0.1;
}

/** Control characters (other than tab and newline) as `\xNN` escapes, newlines as spaces: one printable line. */
export function printable(s: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this escapes
  return s.replace(/\r?\n/g, ' ').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Decodes a file's bytes as text: gunzips gzip data, refuses binary data; the error names `file`. */
export function decodeText(bytes: Uint8Array, file: string): Result<string> {
  let body = bytes;
  if (isGzip(bytes)) {
    try {
      body = gunzipSync(bytes);
    } catch (e) {
      const why = (e as NodeJS.ErrnoException).code === 'Z_BUF_ERROR' ? 'truncated gzip data' : `bad gzip data (${(e as Error).message})`;
      return err(new SteplensError('bad_input', `cannot read ${file}: ${why}`));
    }
  }
  if (looksBinary(body)) {
    return err(new SteplensError('bad_input', `cannot read ${file}: binary data, not a text log${isGzip(bytes) ? ' (after gunzip)' : ''}`));
  }
  return ok(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
}

function readError(file: string, error: unknown): SteplensError {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : code;
  return new SteplensError('bad_input', `cannot read ${file}: ${why}`);
}

/** Reads a file as UTF-8 text (gunzipped when gzip), naming the file in any error. */
export async function readText(file: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw readError(file, error);
  }
  const text = decodeText(bytes, file);
  if (!text.ok) throw text.error;
  return text.value;
}

/** Synchronous `readText` as a value: the text, or the one-line error. */
export function readTextSync(file: string): Result<string> {
  try {
    return decodeText(readFileSync(file), file);
  } catch (error) {
    return err(readError(file, error));
  }
}
