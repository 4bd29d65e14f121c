/**
 * F5: a session ended by the server (shutdown, idle, not resumed) while its client kept streaming went on
 * scoring while its reference was being learned: 239 score frames for `final.steps` 229, and a learned PTA
 * missing the late steps. A finishing session now refuses steps; `final` covers exactly the steps that were
 * scored (and since review s42 #1 a run the server cut off is not learned at all: test/server/learn-ends.test.ts).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import { ReferenceStore } from '../../src/store/reference-store.js';
import { taskFileName } from '../../src/store/file-names.js';
import { ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Frame } from './helpers.js';

let steps: Step[];
let dir: string;

beforeAll(async () => {
  steps = await readSteps(ASTROID.passA);
  dir = await tempDir();
});
afterAll(async () => removeDir(dir));

describe('a session the server ends while its client streams', () => {
  it('stops scoring at once: final holds exactly the scored steps, and the cut-off run is not learned', async () => {
    const store = await ReferenceStore.open({ dataDir: dir });
    const addReference = store.addReference.bind(store);
    // Learning takes a while (a slow disk): the window in which late steps used to slip in (were it learned).
    store.addReference = async (task, states) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      return addReference(task, states);
    };
    const srv = await startApp({ store });
    const c = await Client.connect(srv.wsUrl);
    c.send({ type: 'start', session: 'learner', task: 'learned-task', learn: true });
    await c.nextOf('started', 'learner');
    c.send({ type: 'outcome', session: 'learner', passed: true });
    const half = 20;
    for (let seq = 0; seq < half; seq++) c.send({ type: 'step', session: 'learner', seq, step: steps[seq % steps.length] });
    await c.sync();

    const closing = srv.app.close();
    // The client does not know yet: it keeps streaming through the shutdown.
    let seq = half;
    const streaming = setInterval(() => {
      if (c.ws.readyState === c.ws.OPEN) c.send({ type: 'step', session: 'learner', seq, step: steps[seq % steps.length] });
      seq++;
    }, 5);
    const final = await c.nextOf('final', 'learner');
    clearInterval(streaming);
    await closing;

    const scored = c.frames.filter((f: Frame) => f.type === 'score' && f.session === 'learner');
    expect(final.reason).toBe('shutdown');
    expect(final.learned).toBeUndefined();
    expect(scored.length).toBe(final.steps);
    expect(Math.max(...scored.map((f) => Number(f.t)))).toBe(Number(final.steps) - 1);
    expect(existsSync(path.join(dir, taskFileName('learned-task')))).toBe(false);
    // Steps sent after the session began finishing were refused, not dropped silently.
    const refused = c.frames.filter((f: Frame) => f.type === 'error' && f.session === 'learner');
    for (const e of refused) expect(e).toMatchObject({ code: 'bad_message', message: expect.stringMatching(/has ended|is ending/) });
  });
});
