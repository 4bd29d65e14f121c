/**
 * vitest's file order, with the slowest files first. vitest orders files by their duration in its results
 * cache (node_modules/.vite), but a fresh clone (CI) has none and falls back on file size, which can leave an
 * install or a Python suite of several minutes for last, alone on one worker while the other idles. The files
 * below (the slowest of a full run, with what they wait on) go first, longest first; the rest keep vitest's order.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW = [
  'test/install/packed-install.test.ts', // npm pack + npm install (tree-sitter is compiled) + the installed bin and server
  'test/server/runtime-image.test.ts', // npm ci --omit=dev + the image's start command
  'test/python/python-client.test.ts', // the Python client's unittest suite, a server per class
  'test/report/external-references.test.ts',
  'test/calibrate/default-policy.test.ts',
  'test/docs/readme-commands.test.ts',
  'test/scorer/online-offline-corpus.test.ts',
  'test/cluster/topology.test.ts',
  'test/bench/bench-args.test.ts', // a node process per bench entry (--help) and per numeric flag of each (a bad value): ~150
];

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = SLOW.indexOf(path.relative(f.project.config.root, f.moduleId).split(path.sep).join('/'));
      return i < 0 ? SLOW.length : i;
    };
    // Stable: within a sequence group, listed files first; groups keep their order.
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => a.f.project.config.sequence.groupOrder - b.f.project.config.sequence.groupOrder || rank(a.f) - rank(b.f) || a.i - b.i)
      .map((x) => x.f);
  }
}
