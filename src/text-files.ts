/**
 * Reading a user-named file as text: gzip is decompressed transparently (agents' logs are often
 * stored as `run.traj.json.gz`), binary data is refused, and any failure is a one-line
 * `SteplensError` naming the file, printable (no control bytes echoed to the terminal).
 *
 * Every read is bounded: a file, or what its gzip data expands to, may hold at most the input limit
 * (`STEPLENS_MAX_INPUT_BYTES`, default 256 MiB), so a 3 MB gzip bomb or a symlink to /dev/zero is
 * one clear error instead of a V8 abort. Files found by walking a folder are read only when they
 * are regular files (or symlinks to one): a FIFO would block and a device never ends.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import type * as Zlib from 'node:zlib';
import { SteplensError, err, ok, type Result } from './errors.js';
import { escapeControl, printable } from './printable.js';

/** node:zlib, loaded on the first gzip file: a command reading plain logs does not pay for loading it (issue 24). */
let zlibModule: typeof Zlib | undefined;
const zlib = (): typeof Zlib => (zlibModule ??= process.getBuiltinModule('node:zlib'));

export { escapeControl, printable };

/** How many leading bytes the binary check looks at (as git does). */
const SNIFF = 8000;

/** The default input limit: bytes of one file, and bytes its gzip data may expand to. */
export const DEFAULT_MAX_INPUT_BYTES = 256 * 1024 * 1024;
/** The largest limit that can be set: V8's longest string (a longer text cannot be decoded at all). */
export const MAX_INPUT_BYTES_CAP = 0x1fffffe8;
/** The environment variable that sets the limit (bytes, or a number with K, M or G). */
export const INPUT_LIMIT_ENV = 'STEPLENS_MAX_INPUT_BYTES';

/**
 * The limit `configureInputLimit` set, if it was called in this copy of the module. Otherwise the limit is read from
 * `process.env` where it is used: each file of the CLI bundle (and each worker thread) has a copy of this module of its
 * own, which no configure call of main's reaches (review s42: the variable had no effect in the bundled bin).
 */
let configured: number | undefined;

/** The limit a value of the variable sets: unset or empty, the default; a bad value is a usage error naming the variable. */
function parseInputLimit(value: string | undefined): Result<number> {
  const raw = value?.trim();
  if (raw === undefined || raw === '') return ok(DEFAULT_MAX_INPUT_BYTES);
  const m = /^(\d+)\s*([kmg]?)(?:i?b)?$/i.exec(raw);
  const scale = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m?.[2] ?? '').toLowerCase() as '' | 'k' | 'm' | 'g'];
  const bytes = m ? Number(m[1]) * scale : NaN;
  if (!(bytes >= 1) || bytes > MAX_INPUT_BYTES_CAP) {
    return err(new SteplensError('usage', `${INPUT_LIMIT_ENV} must be a number of bytes from 1 to ${MAX_INPUT_BYTES_CAP} (K, M, G allowed), got '${printable(raw)}'`));
  }
  return ok(bytes);
}

/** The input limit in force, as a value: the configured one, else `process.env`'s. */
function currentLimit(): Result<number> {
  return configured !== undefined ? ok(configured) : parseInputLimit(process.env[INPUT_LIMIT_ENV]);
}

/** The input limit in force (a bad `STEPLENS_MAX_INPUT_BYTES` throws its usage error). */
export function inputLimit(): number {
  const limit = currentLimit();
  if (!limit.ok) throw limit.error;
  return limit.value;
}

/**
 * Sets the input limit from `env` for this copy of the module (the CLI does, from the environment it was given, so a
 * bad value is its one-line error before any work); an unset variable sets the default.
 */
export function configureInputLimit(env: Readonly<Record<string, string | undefined>>): Result<number> {
  const limit = parseInputLimit(env[INPUT_LIMIT_ENV]);
  if (limit.ok) configured = limit.value;
  return limit;
}

/** `256 MiB` for whole mebibytes, else bytes. */
export const sizeText = (bytes: number): string => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);

const limitText = (limit: number) => `the input limit of ${sizeText(limit)} (${INPUT_LIMIT_ENV})`;

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

const fail = (file: string, why: string) => err(new SteplensError('bad_input', `cannot read ${file}: ${why}`));

/** Decodes a file's bytes as text: gunzips gzip data (at most the input limit), refuses binary data; the error names `file`. */
export function decodeText(bytes: Uint8Array, file: string): Result<string> {
  let body = bytes;
  if (isGzip(bytes)) {
    const limit = currentLimit();
    if (!limit.ok) return limit;
    try {
      body = zlib().gunzipSync(bytes, { maxOutputLength: limit.value });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ERR_BUFFER_TOO_LARGE') return fail(file, `gzip data expands to more than ${limitText(limit.value)}`);
      return fail(file, code === 'Z_BUF_ERROR' ? 'truncated gzip data' : `bad gzip data (${(e as Error).message})`);
    }
  }
  if (looksBinary(body)) return fail(file, `binary data, not a text log${isGzip(bytes) ? ' (after gunzip)' : ''}`);
  return ok(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
}

const REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'a loop of symbolic links',
  ENXIO: 'not a regular file (socket or device without a reader)',
};

/** Why a file could not be read, in words (`no such file`, `is a directory`), else the error's code. */
export function readErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  return REASONS[code] ?? code;
}

function readError(file: string, error: unknown): Result<never> {
  return fail(file, readErrorReason(error));
}

/** What a non-regular file is, for the skip reason. */
function kindOf(s: Stats): string {
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  return 'not a file';
}

export interface ReadOptions {
  /**
   * Refuse anything but a regular file (a symlink is followed), without blocking: for files found by
   * walking a folder. Without it a FIFO or device the user named is read (to the input limit).
   */
  regularOnly?: boolean;
}

const CHUNK = 1024 * 1024;

/** The file's bytes, at most the input limit; opened non-blocking when only regular files are read, so a FIFO never hangs. */
function readBytes(file: string, options: ReadOptions): Result<Buffer> {
  const limit = currentLimit();
  if (!limit.ok) return limit;
  const max = limit.value;
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (options.regularOnly ? (constants.O_NONBLOCK ?? 0) : 0));
  } catch (error) {
    return readError(file, error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return fail(file, 'is a directory');
    if (options.regularOnly && !stat.isFile()) return fail(file, `not a regular file (${kindOf(stat)})`);
    if (stat.isFile() && stat.size > max) return fail(file, `${stat.size} bytes, over ${limitText(max)}`);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(stat.isFile() ? Math.min(Math.max(stat.size - total, 0) + 1, CHUNK) : CHUNK);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      if (total > max) return fail(file, `more than ${limitText(max)}`);
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    }
    return ok(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
  } catch (error) {
    return readError(file, error);
  } finally {
    closeSync(fd);
  }
}

/** Synchronous `readText` as a value: the text, or the one-line error. */
export function readTextSync(file: string, options: ReadOptions = {}): Result<string> {
  const bytes = readBytes(file, options);
  return bytes.ok ? decodeText(bytes.value, file) : bytes;
}

/** Reads a file as UTF-8 text (gunzipped when gzip, within the input limit), naming the file in any error. */
export async function readText(file: string, options: ReadOptions = {}): Promise<string> {
  const text = readTextSync(file, options);
  if (!text.ok) throw text.error;
  return text.value;
}
