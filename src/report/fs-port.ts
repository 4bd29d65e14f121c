/**
 * The file-system port the report reads through. The command passes a
 * node:fs implementation; tests may pass an in-memory one. Nothing in
 * `src/report/` touches the disk directly.
 */
import type { Result, SteplensError } from '../errors.js';

export interface DirEntry {
  name: string;
  dir: boolean;
}

export interface ReportFs {
  /** File text (gunzipped when gzip), or undefined when the file is missing, unreadable or binary. */
  readText(path: string): string | undefined;
  /** File text (gunzipped when gzip), or the one-line reason it cannot be read as text. */
  readLog(path: string): Result<string, SteplensError>;
  /** Entries of a directory, or undefined when it is not one. */
  list(dir: string): DirEntry[] | undefined;
  /** 'file' (regular), 'dir', 'other' (a FIFO, socket or device), or undefined when the path does not exist. */
  kind(path: string): 'file' | 'dir' | 'other' | undefined;
  /** What the path is, links followed (device and inode): two paths of one file give the same; undefined when unknown. */
  identity?(path: string): string | undefined;
}
