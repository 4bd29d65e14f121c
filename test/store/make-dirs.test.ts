/**
 * audit20: `steplens serve --data /proc/nope` never returned (and `report --out /proc/x`, `train --out /proc/x/f`):
 * Node 20's `mkdir(dir, { recursive: true })` retries forever when mkdir answers ENOENT under a folder that exists,
 * as /proc does. makeDirs makes each missing folder once, top down, so every failure is an error: the data folder's
 * one line names the folder and why. The bin is run as a child with a deadline (the old code hung until killed).
 * Needs `npm run build` for that part.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { makeDirs, makeDirsSync } from '../../src/store/make-dirs.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const ROOT = packageRoot();
const BIN = path.join(ROOT, (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: { steplens: string } }).bin.steplens);
const RUN = path.join(CORPUS_DIR, 'christsakm__Trajectories/GOOD_EXAMPLES/bokeh__bokeh-13370/trace_01_gpt-5-2025-08-07/bokeh__bokeh-13370.traj');
const PROC = existsSync('/proc/self') ? '/proc' : undefined;

/** The bin's exit, stdout and stderr; killed after 30 s (status null). */
function bin(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, killSignal: 'SIGKILL' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('makeDirs', () => {
  it('makes a folder and the missing ones above it, takes one that exists, and refuses a file in the way', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'steplens-make-dirs-'));
    makeDirsSync(path.join(root, 'a', 'b'));
    await makeDirs(path.join(root, 'c', 'd', 'e'));
    expect(statSync(path.join(root, 'a', 'b')).isDirectory() && statSync(path.join(root, 'c', 'd', 'e')).isDirectory()).toBe(true);
    makeDirsSync(path.join(root, 'a'));
    await makeDirs(root);
    writeFileSync(path.join(root, 'f'), 'x');
    expect(() => makeDirsSync(path.join(root, 'f'))).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(() => makeDirsSync(path.join(root, 'f', 'g'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    await expect(makeDirs(path.join(root, 'f', 'g'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.skipIf(PROC === undefined)('is an error under /proc, not a hang', async () => {
    await expect(makeDirs('/proc/steplens-audit20/x')).rejects.toThrow('/proc takes no new folders (mkdir /proc/steplens-audit20: ENOENT)');
    expect(() => makeDirsSync('/proc/steplens-audit20')).toThrow('/proc takes no new folders');
  });
});

describe.skipIf(PROC === undefined)('the bin on a folder /proc will not take', () => {
  it('serve --data: one line naming the folder, exit 1', () => {
    const r = bin('serve', '--port', '0', '--data', '/proc/steplens-audit20', '--log-level', 'silent');
    expect([r.status, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'steplens serve: data folder /proc/steplens-audit20 cannot be created: /proc takes no new folders (mkdir /proc/steplens-audit20: ENOENT)\n',
    ]);
  });

  it('report --out: one line naming the folder, exit 1', () => {
    const r = bin('report', '--out', '/proc/steplens-audit20/report', RUN);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^steplens report: .*\/proc\/steplens-audit20\/report.*\n$/);
  });
});
