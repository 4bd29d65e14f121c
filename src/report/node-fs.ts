/** The node:fs implementation of the report's file-system port (used by the CLI command only). */
import { readdirSync, statSync } from 'node:fs';
import { readTextSync } from '../text-files.js';
import type { ReportFs } from './fs-port.js';

/**
 * Synchronous reads (gzip decompressed, within the input limit); `readText` swallows errors, `readLog`
 * says what they are. Both read only regular files (or symlinks to one): every file the report reads
 * was found by walking folders, where a FIFO would hang the walk and a device never ends.
 */
export const nodeReportFs: ReportFs = {
  readText(path) {
    const r = readTextSync(path, { regularOnly: true });
    return r.ok ? r.value : undefined;
  },
  readLog: (path) => readTextSync(path, { regularOnly: true }),
  list(dir) {
    try {
      return readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() }));
    } catch {
      return undefined;
    }
  },
  identity(path) {
    try {
      const s = statSync(path, { bigint: true });
      return `${s.dev}:${s.ino}`;
    } catch {
      return undefined;
    }
  },
  kind(path) {
    try {
      const s = statSync(path);
      return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
    } catch {
      return undefined;
    }
  },
};
