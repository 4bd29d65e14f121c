/**
 * Drill: the CLI from dist (one process per command, as a user runs it) on real runs mixed with gzip
 * bombs, an oversized file, symlinks to /dev/zero and /dev/urandom, a FIFO, and runs whose text carries ESC
 * sequences and formulas: every command ends by itself with exit 0 or 1, names each refused file, reads
 * every real run, prints and writes no raw control character and no formula cell.
 * `node dist/bench/drills.js --only files` runs it with 3.5 GiB and 600 MiB bombs at the default limit.
 * Needs `npm run build`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runHostileFiles } from '../../bench/drills/hostile-files.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'steplens-hostile-drill-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('hostile files through every reading command: bounded, named, escaped', async () => {
  const r = await runHostileFiles({
    cli: path.join(ROOT, 'dist/src/cli/main.js'),
    examples: path.join(ROOT, 'examples/runs'),
    work,
    bombsMiB: [64, 48],
    plainMiB: 9,
    hostileCopies: 2,
    limit: '8M',
    timeoutMs: 120_000,
  });
  expect(r.problems).toEqual([]);
  expect(r.readable).toBe(21);
  expect(r.refused).toBe(8);
  expect(r.commands.every((c) => c.code === 0 || c.code === 1)).toBe(true);
}, 600_000);
