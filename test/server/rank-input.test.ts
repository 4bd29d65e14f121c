/**
 * `POST /v1/rank` on real corpus runs: a run's `task` field is for a log that names none, as body.task is (a log of
 * another task makes the group mixed, named, instead of being scored against that task's PTA), and one name for two
 * runs is refused rather than answered twice under it, and a run with neither or both of trajectory and session is
 * refused saying which.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ASTROID, CORPUS, readDoc, useInjectApp } from './helpers.js';

const EXAMPLES = path.resolve(import.meta.dirname, '../../data/example');
const A1866 = `${CORPUS}/SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json`;

async function postTo(app: FastifyInstance, body: unknown): Promise<{ status: number; body: { error?: { code: string; message: string }; runs?: Array<{ id: string; task?: string }> } }> {
  const res = await app.inject({ method: 'POST', url: '/v1/rank', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, body: res.json() };
}

describe('POST /v1/rank: tasks and names', () => {
  const app = useInjectApp({ seedDirs: [EXAMPLES] });

  it("refuses a run whose task field names another task than its log's (it was scored against that task's PTA)", async () => {
    const runs = [
      { trajectory: await readDoc(ASTROID.passA), id: 'a' },
      { trajectory: await readDoc(A1866), id: 'b', task: ASTROID.task },
    ];
    const r = await postTo(app(), { runs });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      code: 'mixed_tasks',
      message: `the runs are of 2 tasks: ${ASTROID.task} (runs[1].task, a); pylint-dev__astroid-1866 (b); rank compares runs of one task ("mixedTasks": true ranks them anyway)`,
    });
    // The same task as the log's is no conflict.
    const same = await postTo(app(), { runs: [runs[0], { ...runs[1], task: 'pylint-dev__astroid-1866' }], mixedTasks: true });
    expect(same.status).toBe(200);
    expect(same.body.runs!.map((x) => [x.id, x.task]).sort()).toEqual([
      ['a', ASTROID.task],
      ['b', 'pylint-dev__astroid-1866'],
    ]);
  });

  it('says which of trajectory and session a run lacks or has twice', async () => {
    const trajectory = await readDoc(ASTROID.passA);
    const neither = await postTo(app(), { runs: [{ trajectory }, { id: 'b' }] });
    expect(neither).toEqual({ status: 400, body: { error: { code: 'bad_message', message: 'body.runs[1]: give trajectory (a finished run) or session (a session id): the run has neither' } } });
    const both = await postTo(app(), { runs: [{ trajectory }, { trajectory, session: 's1' }] });
    expect(both).toEqual({ status: 400, body: { error: { code: 'bad_message', message: 'body.runs[1]: give trajectory (a finished run) or session (a session id), not both' } } });
  });

  it('refuses one id given to two runs, naming both', async () => {
    const runs = [{ trajectory: await readDoc(ASTROID.passA), id: 'x' }, { trajectory: await readDoc(ASTROID.fail) }, { trajectory: await readDoc(ASTROID.passB), id: 'x' }];
    const r = await postTo(app(), { runs });
    expect(r).toEqual({ status: 400, body: { error: { code: 'bad_message', message: 'runs[0] and runs[2] are both named x: each run is ranked once, under its own name' } } });
  });
});
