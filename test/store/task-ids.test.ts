/**
 * F7: task ids whose escaped file name passed 255 bytes (230+ ASCII characters, or unicode escaped to 9 bytes
 * a character) failed with ENAMETOOLONG in the log only: learn ended without `learned`, POST references
 * answered 500; ids over 100 characters in a URL got fastify's own 414. Every valid id now maps to a file
 * name the filesystem takes (long ones hashed, the task read back from the file), and URLs take every
 * valid id. Files written under the old names keep working.
 */
import { readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScorer } from '../../src/core/scorer.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import type { State } from '../../src/core/types.js';
import { MAX_NAME_BYTES, taskFileName, taskFromFileName } from '../../src/store/file-names.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { ASTROID, Client, readDoc, readSteps, removeDir, startApp, tempDir, type Running } from '../server/helpers.js';

const LONG_ASCII = `org__${'a'.repeat(240)}-1`;
const LONG_UNICODE = `é${'日本'.repeat(100)}`;
let states: State[];
let dir: string;

beforeAll(async () => {
  const scorer = createScorer({ reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() });
  for (const s of await readSteps(ASTROID.passA)) scorer.push(s);
  states = [...scorer.states()];
  dir = await tempDir();
});
afterAll(async () => removeDir(dir));

describe('task file names', () => {
  it('fit the filesystem for every valid id, and stay readable for ordinary ones', () => {
    expect(taskFileName('django__django-11099')).toBe('django__django-11099.json');
    for (const task of [LONG_ASCII, LONG_UNICODE, '%'.repeat(256), '🙂'.repeat(128)]) {
      const name = taskFileName(task);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(MAX_NAME_BYTES);
      expect(name).toMatch(/~[0-9a-f]{32}\.json$/);
      expect(taskFromFileName(name)).toBeUndefined();
    }
    expect(taskFileName(LONG_ASCII)).not.toBe(taskFileName(`${LONG_ASCII}x`));
  });

  it('store, list and reload long and unicode ids', async () => {
    const data = path.join(dir, 'store');
    const store = await ReferenceStore.open({ dataDir: data });
    for (const task of [LONG_ASCII, LONG_UNICODE]) expect((await store.addReference(task, states)).version).toBe(1);
    await store.close();
    const again = await ReferenceStore.open({ dataDir: data });
    expect(await again.tasks()).toEqual([LONG_ASCII, LONG_UNICODE].sort());
    expect((await again.get(LONG_UNICODE))?.task).toBe(LONG_UNICODE);
    expect((await again.addReference(LONG_ASCII, states)).version).toBe(2);
    expect((await readdir(data)).filter((n) => !n.startsWith('.')).length).toBe(2);
  });

  it('keep reading a file under an old long readable name, and write it in place', async () => {
    const data = path.join(dir, 'old');
    const task = `t${'b'.repeat(200)}`;
    const writer = await ReferenceStore.open({ dataDir: data });
    await writer.addReference(task, states);
    await writer.close();
    // The name an older steplens wrote: the readable escape, however long.
    const oldName = `${task}.json`;
    await rename(path.join(data, taskFileName(task)), path.join(data, oldName));
    const store = await ReferenceStore.open({ dataDir: data });
    expect(await store.tasks()).toEqual([task]);
    expect((await store.addReference(task, states)).version).toBe(2);
    expect((await readdir(data)).filter((n) => !n.startsWith('.'))).toEqual([oldName]);
  });

  it('ignore a hashed file whose content names no task', async () => {
    const data = path.join(dir, 'stray');
    const store = await ReferenceStore.open({ dataDir: data });
    await store.addReference(LONG_ASCII, states);
    await store.close();
    await writeFile(path.join(data, `x~${'0'.repeat(32)}.json`), '{"hello": 1}');
    const warnings: string[] = [];
    const again = await ReferenceStore.open({ dataDir: data, warn: (m) => warnings.push(m) });
    expect(await again.tasks()).toEqual([LONG_ASCII]);
    expect(warnings.join('\n')).toMatch(/x~0{32}\.json/);
  });
});

describe('long and unicode ids over the wire', () => {
  let srv: Running;
  beforeAll(async () => {
    srv = await startApp({ dataDir: path.join(dir, 'server') });
  });
  afterAll(async () => srv.app.close());

  it('a learn session of a long id grows its PTA, and every route takes the id', async () => {
    const steps = await readSteps(ASTROID.passA);
    for (const [i, task] of [LONG_ASCII, LONG_UNICODE].entries()) {
      const c = await Client.connect(srv.wsUrl);
      const session = `learner-${i}`;
      c.send({ type: 'start', session, task, learn: true });
      await c.nextOf('started', session);
      steps.forEach((step, seq) => c.send({ type: 'step', session, seq, step }));
      c.send({ type: 'outcome', session, passed: true });
      c.send({ type: 'end', session });
      expect((await c.nextOf('final', session)).learned).toEqual({ version: 1 });
      c.close();
      const url = `${srv.url}/v1/tasks/${encodeURIComponent(task)}`;
      expect((await fetch(`${url}/pta`)).status).toBe(200);
      const added = await fetch(`${url}/references`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ trajectory: await readDoc(ASTROID.passB) }) });
      expect(await added.json()).toMatchObject({ task, version: 2 });
    }
    const listed = (await (await fetch(`${srv.url}/v1/tasks`)).json()) as { tasks: Array<{ task: string }> };
    expect(listed.tasks.map((t) => t.task).sort()).toEqual([LONG_ASCII, LONG_UNICODE].sort());
  });

  it('a long unknown id or session id in a URL is a 404 of the catalogue, not a 414', async () => {
    const pta = await fetch(`${srv.url}/v1/tasks/${'z'.repeat(250)}/pta`);
    expect(pta.status).toBe(404);
    expect(await pta.json()).toMatchObject({ error: { code: 'unknown_task' } });
    const session = await fetch(`${srv.url}/v1/sessions/${'s'.repeat(128)}`);
    expect(await session.json()).toMatchObject({ error: { code: 'unknown_session' } });
  });

  it('refuses an id that is not well-formed unicode up front, naming it', async () => {
    const c = await Client.connect(srv.wsUrl);
    c.send('{"type":"start","session":"bad","task":"a\\ud800b"}');
    expect(await c.nextOf('error')).toMatchObject({ code: 'bad_message', message: expect.stringMatching(/^start\.task: /) });
    c.close();
  });
});
