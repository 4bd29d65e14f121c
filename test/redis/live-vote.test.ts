/**
 * A vote over live sessions with Redis (issue 26 item 3): the class of the patch a session's end carried is kept in
 * its final, which the journal holds, so another replica ranks the ended session by vote as the replica that ended it
 * does: reading it from the journal, and once it took the session over (a resume rebuilds it from the journal). On
 * facebookresearch__hydra-1915's three real runs.
 */
import { describe, expect, it } from 'vitest';
import { normalisedDiff } from '../../src/core/rank/final-patch.js';
import { labelSteps } from '../../src/core/state-builder.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { Client, CORPUS, readSteps } from '../server/helpers.js';
import { freshPrefix, postJson, startReplica, useRedis } from './replicas.js';

const fx = useRedis();
const TASK = 'facebookresearch__hydra-1915';
const TRACES = ['trace_01_gpt-5-2025-08-07', 'trace_02_kimi-k2-instruct-0905', 'trace_03_qwen3-coder-480b-a35b-instruct'];
const fileOf = (trace: string) => `${CORPUS}/christsakm__Trajectories/GOOD_EXAMPLES/${TASK}/${trace}/${TASK}.traj`;

function submittedDiff(steps: Step[]): string {
  let out = '';
  labelSteps(steps, defaultAnalyzers()).forEach(({ state }, i) => {
    const seen = steps[i]!.observation;
    if (state.kind === 'finish' && seen !== undefined && normalisedDiff(seen) !== null) out = seen;
  });
  return out;
}

describe('the vote over sessions, across replicas', () => {
  it('ranks sessions ended on replica A the same on replica B, read from the journal and once B took them over', async () => {
    const prefix = freshPrefix('live-vote');
    const a = await startReplica(fx.redis, prefix, 'replica-a');
    const b = await startReplica(fx.redis, prefix, 'replica-b');
    fx.running.push(a, b);
    const ca = await Client.connect(a.wsUrl);
    fx.clients.push(ca);
    const finals = [];
    for (const trace of TRACES) {
      const steps = await readSteps(fileOf(trace));
      ca.send({ type: 'start', session: trace, task: TASK });
      await ca.nextOf('started', trace);
      steps.forEach((step, seq) => ca.send({ type: 'step', session: trace, seq, step }));
      for (const _ of steps) await ca.nextOf('score', trace);
      ca.send({ type: 'end', session: trace, patch: submittedDiff(steps) });
      finals.push(await ca.nextOf('final', trace));
    }
    const body = { basis: 'vote', runs: TRACES.map((t) => ({ session: t })) };
    const onA = await postJson(`${a.url}/v1/rank`, body);
    expect(onA.status).toBe(200);
    expect((onA.body.runs as Array<{ id: string; vote: number }>).map((r) => [r.id, r.vote])).toEqual([
      [TRACES[2], 2],
      [TRACES[0], 2],
      [TRACES[1], 1],
    ]);
    // B holds none of them: it reads them from the journal (read-only copies, no lease taken), final and patch class included.
    expect(await postJson(`${b.url}/v1/rank`, body)).toEqual(onA);
    // And once a client resumes them there (rebuilt from the journal, taken over), the same.
    const cb = await Client.connect(b.wsUrl);
    fx.clients.push(cb);
    for (const [i, trace] of TRACES.entries()) {
      cb.send({ type: 'resume', session: trace, after: 1_000_000 });
      await cb.nextOf('resumed', trace);
      expect(await cb.nextOf('final', trace)).toEqual(finals[i]);
    }
    const onB = await postJson(`${b.url}/v1/rank`, body);
    expect(onB).toEqual(onA);
  }, 60_000);
});
