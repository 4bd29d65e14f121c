/**
 * Review s42 #1: a graceful shutdown ended a `learn` session whose `passed` outcome was already sent and merged
 * the cut-off run into its task's PTA (and counted it in shadow mode); the client's replay on the restarted
 * server then learned and counted the whole run a second time. Only a session its client ends (`end`) is a whole
 * run: one the server ends (shutdown, idle, not resumed) is neither learned nor counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../src/core/types.js';
import type { PoliciesStatus } from '../../src/server/policy-status.js';
import { ASTROID, Client, readSteps, removeDir, startApp, tempDir, type Frame, type Running } from './helpers.js';

let steps: Step[];
const dirs: string[] = [];
beforeAll(async () => {
  steps = await readSteps(ASTROID.passA);
});
afterAll(async () => {
  for (const d of dirs) await removeDir(d);
});

async function server(extra: Record<string, unknown> = {}): Promise<{ srv: Running; dir: string }> {
  const dir = await tempDir();
  dirs.push(dir);
  return { srv: await startApp({ dataDir: dir, seedDirs: [], shadow: true, ...extra }), dir };
}

/** A learn session of a passing run, `passed` sent up front, its first `n` steps scored. */
async function learning(c: Client, id: string, task: string, n: number): Promise<void> {
  c.send({ type: 'start', session: id, task, learn: true });
  await c.nextOf('started', id);
  c.send({ type: 'outcome', session: id, passed: true });
  for (let seq = 0; seq < n; seq++) c.send({ type: 'step', session: id, seq, step: steps[seq] });
  await c.sync();
}

const tasks = async (url: string) => ((await (await fetch(`${url}/v1/tasks`)).json()) as { tasks: Array<{ task: string; references: number }> }).tasks;
/** Shadow runs counted, all pairs together. */
async function shadowRuns(url: string): Promise<{ passing: number; failing: number }> {
  const { pairs } = (await (await fetch(`${url}/v1/policies`)).json()) as PoliciesStatus;
  return pairs.reduce((sum, p) => ({ passing: sum.passing + p.runs.passing, failing: sum.failing + p.runs.failing }), { passing: 0, failing: 0 });
}

describe('which ends learn', () => {
  it('a session ended by shutdown is neither learned nor counted in shadow mode; the replayed run is, once', async () => {
    const { srv, dir } = await server();
    const c = await Client.connect(srv.wsUrl);
    await learning(c, 'cut', 'cut-task', 10);
    const closing = srv.app.close();
    const final = await c.nextOf('final', 'cut');
    await closing;
    expect(final).toMatchObject({ reason: 'shutdown', passed: true, steps: 10 });
    expect(final.learned).toBeUndefined();

    // The restarted server (same data folder, counters saved at shutdown) holds nothing of the cut-off run.
    const again = await startApp({ dataDir: dir, seedDirs: [], shadow: true });
    try {
      expect(await tasks(again.url)).toEqual([]);
      expect(await shadowRuns(again.url)).toEqual({ passing: 0, failing: 0 });
      // The client starts it again, replays every step and ends it: learned and counted once.
      const d = await Client.connect(again.wsUrl);
      await learning(d, 'cut', 'cut-task', steps.length);
      d.send({ type: 'end', session: 'cut' });
      const whole: Frame = await d.nextOf('final', 'cut');
      expect(whole).toMatchObject({ reason: 'end', steps: steps.length, learned: { version: 1 } });
      expect(await tasks(again.url)).toEqual([expect.objectContaining({ task: 'cut-task', references: 1 })]);
      expect(await shadowRuns(again.url)).toEqual({ passing: 1, failing: 0 });
      d.close();
    } finally {
      await again.app.close();
    }
  });

  it('sessions ended idle or not resumed are neither learned nor counted', async () => {
    const { srv } = await server({ idleTimeoutMs: 300, resumeWindowMs: 300 });
    try {
      const c = await Client.connect(srv.wsUrl);
      await learning(c, 'idle', 'idle-task', 5);
      expect(await c.nextOf('final', 'idle', 5_000)).toMatchObject({ reason: 'idle', steps: 5 });
      const gone = await Client.connect(srv.wsUrl);
      await learning(gone, 'dropped', 'dropped-task', 5);
      gone.ws.terminate();
      await gone.whenClosed();
      // Ended not_resumed by the sweep, then freed: the resume answers its final while it is kept, or unknown_session.
      await new Promise((resolve) => setTimeout(resolve, 500));
      c.send({ type: 'resume', session: 'dropped', after: -1 });
      const answer = await c.next((f) => f.session === 'dropped' && (f.type === 'final' || f.type === 'error'));
      if (answer.type === 'final') expect(answer).toMatchObject({ reason: 'not_resumed' });
      else expect(answer.code).toBe('unknown_session');
      expect(await tasks(srv.url)).toEqual([]);
      expect(await shadowRuns(srv.url)).toEqual({ passing: 0, failing: 0 });
      c.close();
    } finally {
      await srv.app.close();
    }
  });
});
