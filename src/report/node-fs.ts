/** The node:fs implementation of the report's file-system port (used by the CLI command only). */
import { readdirSync, statSync } from 'node:fs';
import { readTextSync } from '../text-files.js';
import type { ReportFs } from './fs-port.js';

/** Synchronous reads (gzip decompressed); `readText` swallows errors, `readLog` says what they are. */
export const nodeReportFs: ReportFs = {
  readText(path) {
    const r = readTextSync(path);
    return r.ok ? r.value : undefined;
  },
  readLog: readTextSync,
  list(dir) {
    try {
      return readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() }));
    } catch {
      return undefined;
    }
  },
  kind(path) {
    try {
      const s = statSync(path);
      return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
    } catch {
      return undefined;
    }
  },
};
