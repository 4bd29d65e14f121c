/**
 * F8: a truncated or wrong-schema PTA file in --data went unnoticed at start; its task then answered 500
 * forever (a new reference could not repair it), the message held the server's absolute path, and a
 * WebSocket `start` got a bare `internal`. Issue 12: every JSON file of the folder was read as a PTA
 * (`data/example-sources.json`). Now: warned at start naming the file; ours but broken is moved aside and the
 * task falls back to the prior; a file that is not a PTA is skipped and left alone; clients see no path.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { ASTROID, Client, readDoc, removeDir, startApp, tempDir, type Running } from '../server/helpers.js';

const EXAMPLE = path.resolve('data/example/pylint-dev__astroid-1196.json');
let dir: string;
let good: string;

beforeAll(async () => {
  dir = await tempDir();
  good = await readFile(EXAMPLE, 'utf8');
});
afterAll(async () => removeDir(dir));

/** A data folder with one good PTA, a truncated one, a wrong-schema one and two files that are not PTAs. */
async function messyFolder(name: string): Promise<string> {
  const data = path.join(dir, name);
  const store = await ReferenceStore.open({ dataDir: data });
  await store.close();
  await writeFile(path.join(data, 'pylint-dev__astroid-1196.json'), good);
  await writeFile(path.join(data, 'truncated-task.json'), good.replace(/"task":"[^"]+"/, '"task":"truncated-task"').slice(0, 2000));
  await writeFile(path.join(data, 'wrong-schema.json'), good.replace(/"task":"[^"]+"/, '"task":"wrong-schema"').replace('"schema":1', '"schema":99'));
  await writeFile(path.join(data, 'example-sources.json'), '{"description": "not a PTA", "tasks": {}}');
  await writeFile(path.join(data, 'notes.json'), 'these are my notes, not JSON');
  return data;
}

describe('a data folder with broken and foreign files', () => {
  it('opens with one warning per file, moves ours aside, leaves the others alone', async () => {
    const data = await messyFolder('open');
    const warnings: string[] = [];
    const store = await ReferenceStore.open({ dataDir: data, warn: (m) => warnings.push(m) });
    expect(await store.tasks()).toEqual(['pylint-dev__astroid-1196']);
    const names = await readdir(data);
    expect(names).toContain('example-sources.json');
    expect(names).toContain('notes.json');
    expect(names).not.toContain('truncated-task.json');
    expect(names).not.toContain('wrong-schema.json');
    expect(names.filter((n) => n.includes('.unreadable-')).sort()).toEqual([expect.stringMatching(/^truncated-task\.json\.unreadable-/), expect.stringMatching(/^wrong-schema\.json\.unreadable-/)]);
    expect(await readFile(path.join(data, 'notes.json'), 'utf8')).toBe('these are my notes, not JSON');
    expect(warnings).toHaveLength(4);
    for (const file of ['truncated-task.json', 'wrong-schema.json', 'example-sources.json', 'notes.json']) {
      expect(warnings.some((w) => w.includes(path.join(data, file)))).toBe(true);
    }
    expect(warnings.find((w) => w.includes('wrong-schema'))).toMatch(/schema: expected 1, got 99.*moved aside/);
    expect(warnings.find((w) => w.includes('notes.json'))).toMatch(/not a PTA.*left in place/);
  });

  it('a file broken after start is handled the same way on first use', async () => {
    const data = await messyFolder('later');
    const warnings: string[] = [];
    const store = await ReferenceStore.open({ dataDir: data, warn: (m) => warnings.push(m) });
    warnings.length = 0;
    await writeFile(path.join(data, 'pylint-dev__astroid-1196.json'), good.slice(0, 100));
    expect(await store.reference('pylint-dev__astroid-1196')).toMatchObject({ kind: 'prior' });
    expect(await store.tasks()).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/pylint-dev__astroid-1196\.json: truncated or corrupt: .*moved aside/)]);
    expect((await store.addReference('pylint-dev__astroid-1196', [])).version).toBe(1);
  });
});

describe('the server over a messy data folder', () => {
  let srv: Running;
  let data: string;
  beforeAll(async () => {
    data = await messyFolder('server');
    srv = await startApp({ dataDir: data });
  });
  afterAll(async () => srv.app.close());

  it('scores a broken task against the prior, learns it anew, and never shows a server path', async () => {
    const doc = await readDoc(ASTROID.passA);
    const bodies: string[] = [];
    const post = async (route: string, body: unknown): Promise<Response> => {
      const res = await fetch(`${srv.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      bodies.push(await res.clone().text());
      return res;
    };
    const scored = await post('/v1/score', { task: 'truncated-task', trajectory: doc });
    expect(scored.status).toBe(200);
    expect(((await scored.json()) as { reference: unknown }).reference).toEqual({ kind: 'prior' });
    const pta = await fetch(`${srv.url}/v1/tasks/wrong-schema/pta`);
    expect(pta.status).toBe(404);
    bodies.push(await pta.text());
    for (const task of ['truncated-task', 'wrong-schema']) {
      const added = await post(`/v1/tasks/${task}/references`, { trajectory: doc });
      expect(added.status).toBe(201);
      expect(await added.json()).toMatchObject({ task, version: 1 });
    }
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', session: 's', task: 'example-sources' });
    expect(await c.nextOf('started', 's')).toMatchObject({ reference: { kind: 'prior' } });
    c.close();
    const tasks = (await (await fetch(`${srv.url}/v1/tasks`)).json()) as { tasks: Array<{ task: string }> };
    expect(tasks.tasks.map((t) => t.task)).toEqual(['pylint-dev__astroid-1196', 'truncated-task', 'wrong-schema']);
    for (const body of bodies) expect(body).not.toContain(dir);
  });
});

describe('a data folder that cannot be created', () => {
  it('is one bad_input error naming the folder and why, not an internal error', async () => {
    const file = path.join(dir, 'a-file');
    await writeFile(file, 'not a folder');
    for (const dataDir of [file, path.join(file, 'below')]) {
      await expect(ReferenceStore.open({ dataDir })).rejects.toMatchObject({
        code: 'bad_input',
        message: `data folder ${dataDir} cannot be created: it (or a folder above it) is a file`,
      });
    }
  });
});
