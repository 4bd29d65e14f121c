/**
 * One server per data folder: a second process on the folder used to grow PTAs from its own stale copy and rename
 * over the first's file, losing acknowledged references. The second is now refused, naming the holder; a lock
 * left by a crashed process (its pid gone) or not refreshed for 30 s is taken over.
 */
import { spawn } from 'node:child_process';
import { readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_NAME } from '../../src/store/data-lock.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { removeDir, tempDir } from '../server/helpers.js';

const dirs: string[] = [];
const dir = async () => {
  const d = await tempDir();
  dirs.push(d);
  return d;
};
afterAll(async () => {
  for (const d of dirs) await removeDir(d);
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('the data folder lock', () => {
  it('refuses a second store on the folder, naming the holder; closing gives it back', async () => {
    const data = await dir();
    const first = await ReferenceStore.open({ dataDir: data });
    await expect(ReferenceStore.open({ dataDir: data })).rejects.toMatchObject({
      code: 'bad_input',
      message: expect.stringContaining(`is in use by process ${process.pid} on ${hostname()}`),
    });
    expect(JSON.parse(await readFile(path.join(data, LOCK_NAME), 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    await first.close();
    const second = await ReferenceStore.open({ dataDir: data });
    await second.close();
  });

  it('takes over a lock whose process is gone, one cut short by a crash, and one not refreshed for 30 s', async () => {
    const data = await dir();
    const file = path.join(data, LOCK_NAME);
    const stale = new Date(Date.now() - 60_000);
    const cases: Array<() => Promise<void>> = [
      async () => writeFile(file, JSON.stringify({ pid: await deadPid(), host: hostname() })),
      async () => writeFile(file, '{"pid": 12'),
      async () => {
        await writeFile(file, JSON.stringify({ pid: process.pid, host: 'another-host' }));
        await utimes(file, stale, stale);
      },
    ];
    for (const leave of cases) {
      await leave();
      const store = await ReferenceStore.open({ dataDir: data });
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
      await store.close();
    }
    // A fresh lock of another host is respected.
    await writeFile(file, JSON.stringify({ pid: 1, host: 'another-host' }));
    await expect(ReferenceStore.open({ dataDir: data })).rejects.toMatchObject({ message: expect.stringContaining('process 1 on another-host') });
  });

  it('`steplens serve` on a folder another server uses exits with one error line naming it', async () => {
    const data = await dir();
    const store = await ReferenceStore.open({ dataDir: data });
    const main = path.resolve('dist/bin/steplens.js'); // the bin, as a user runs it
    const child = spawn(process.execPath, [main, 'serve', '--host', '127.0.0.1', '--port', '0', '--data', data], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    const code = await new Promise((r) => child.once('exit', r));
    await store.close();
    expect(code).not.toBe(0);
    expect(err.trim().split('\n')).toEqual([expect.stringMatching(/data folder .* is in use by process \d+ on .*one server per data folder/)]);
  });
});
