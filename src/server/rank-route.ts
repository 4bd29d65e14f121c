/**
 * `POST /v1/rank` on the main thread (docs/rank.md): the worker job (rank-job.ts) has parsed the body
 * and scored its trajectories; here the session runs are read, only the caller's own (session-lookup.ts: this
 * replica's copy, or with Redis the journal's), with the class of the patch their end carried (the vote's), and the
 * group is ordered. Any bad run fails the whole call with one error naming it; nothing is changed by a rank call,
 * so nothing else is lost.
 *
 * Reading a session (its report, states and edit locations) costs the event loop about what its step view does: a
 * session named twice is read once, and the loop is given back between sessions, so one call naming 64 sessions of
 * 5,000 steps (or one such session 64 times) never holds every other tenant's sockets for seconds.
 *
 * A tenant's calls do this part at most `RANKS_PER_TENANT` at a time, the rest waiting in order (never another
 * tenant's): each call holds its sessions' edit locations until it answers, and bob's 240 calls at once, each naming
 * his 64 sessions of 2,000 steps, all read a session a turn side by side: the server's RSS 185 MB -> 1.23 GB and
 * alice's pings p99 2.3 s (T121).
 */
import { setImmediate as yieldLoop } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consensusInSteps, locationItems } from '../core/rank/consensus.js';
import { consensusFootprints, groupTask, rankRuns, type RankInput } from '../core/rank/rank.js';
import { runInTurns } from './in-turns.js';
import type { RankResponse } from '../protocol/rank-bodies.js';
import { sendError, type RouteDeps } from './http-routes.js';
import { MIXED_TASKS_HINT, type RankJobValue } from './rank-job.js';
import { lookupSession } from './session-lookup.js';
import { withRankModel } from './rank-end.js';
import { SteplensError } from '../errors.js';
import { TenantSlots } from './tenant-slots.js';
import type { JobKind, JobResult } from './scoring-jobs.js';

/** A tenant's rank calls reading sessions and ranking at once (T121). */
export const RANKS_PER_TENANT = 2;

type Fail = (req: FastifyRequest, reply: FastifyReply, result: Extract<JobResult, { ok: false }>) => FastifyReply;

export function registerRankRoute(scoped: FastifyInstance, deps: RouteDeps, run: (kind: JobKind, req: FastifyRequest) => Promise<JobResult>, failed: Fail): void {
  const { registry, metrics } = deps;
  const slots = new TenantSlots(RANKS_PER_TENANT);
  scoped.post('/v1/rank', async (req, reply) => {
    const result = await run('rank', req);
    if (!result.ok) return failed(req, reply, result);
    const job = result.value as RankJobValue;
    const principal = deps.principal(req);
    return slots.run(principal.tenant, () => answer(reply, job, principal.tenant));
  });

  async function answer(reply: FastifyReply, job: RankJobValue, tenant: string): Promise<FastifyReply> {
    const inputs: RankInput[] = [];
    const read = new Map<string, Omit<RankInput, 'id'>>();
    for (const r of job.runs) {
      if (!('session' in r)) {
        const { index: _index, ...input } = r;
        inputs.push(input);
        continue;
      }
      let input = read.get(r.session);
      if (input === undefined) {
        // Given back before the lookup, so the session read is the one found now.
        if (read.size > 0) await yieldLoop();
        // Only the caller's own tenant's sessions: another tenant's id is as unknown as one that never existed. With
        // Redis, one held or ended on another replica is read from the journal (a group's rollouts end where they ran).
        let found;
        try {
          found = await lookupSession(registry, deps.durable, tenant, r.session);
        } catch (error) {
          if (error instanceof SteplensError) return sendError(reply, metrics, error.code, `runs[${r.index}].session: ${error.message}`);
          throw error;
        }
        if (found === undefined) return sendError(reply, metrics, 'unknown_session', `runs[${r.index}].session: no session ${r.session}`);
        const s = found.session;
        const report = s.final ?? s.headline();
        // The vote's patch: the class the session's end carried (end-patch.ts), kept in its final; none while it is open.
        const patch = s.final?.patch;
        input = {
          task: s.task,
          composite: report.score.total,
          reference: s.reference,
          pPass: report.pPass,
          steps: s.length,
          locations: [...locationItems(s.states())],
          ...(patch !== undefined ? { patch } : {}),
          // Said in the answer: a run still going is ranked on its steps so far beside finished ones.
          ...(s.final === undefined ? { open: true } : {}),
        };
        read.set(r.session, input);
      }
      inputs.push({ id: r.id, ...input });
    }
    const named = [...(job.task !== undefined ? [{ id: 'body.task', task: job.task }] : []), ...inputs];
    const group = groupTask(named, job.mixedTasks, MIXED_TASKS_HINT);
    if (!group.ok) return sendError(reply, metrics, group.error.code, group.error.message);
    const options = { consensus: job.consensus, basis: job.basis, mixedTasks: job.mixedTasks, mixedTasksHint: MIXED_TASKS_HINT };
    // The consensus of 64 runs of 10,000 edit locations is a few hundred ms of merges: a slice a turn (T71).
    const footprints = consensusFootprints(inputs, options);
    const agreement = footprints === undefined ? undefined : await runInTurns(consensusInSteps(footprints));
    const ranked = rankRuns(inputs, { ...options, ...(agreement !== undefined ? { agreement } : {}) });
    if (!ranked.ok) return sendError(reply, metrics, ranked.error.code, ranked.error.message);
    // With "rankModel": the model asked for, and per run the one that gave its pPass (a session's: the prefix model).
    const sessions = new Set(job.runs.flatMap((r) => ('session' in r ? [r.index] : [])));
    const answer: RankResponse = withRankModel({ ...ranked.value, task: group.value }, sessions, job.rankModel);
    return reply.send(answer);
  }
}
