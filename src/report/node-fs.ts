/** The node:fs implementation of the report's file-system port (used by the CLI command only). */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import type { ReportFs } from './fs-port.js';

/** Synchronous, error-swallowing reads: a missing or unreadable path is `undefined`. */
export const nodeReportFs: ReportFs = {
  readText(path) {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  },
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
