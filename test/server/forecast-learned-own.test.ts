/**
 * `serve --forecast-learn` over a real socket with real runs (test/forecast/fixtures.ts): once a source's own model
 * fitted here is in force, the next candidate is checked against that model's procedure refitted out of fold, not
 * against its weights scored on the sessions they were fitted on (learn24: in-sample, they won every later check);
 * `GET /v1/forecast` marks the model as learned here; a pass with no new session of the source does not try it again.
 */
import { describe, expect, it } from 'vitest';
import { Client, removeDir, tempDir } from './helpers.js';
import { AGENT, blind, learningServer, report, runs } from './forecast-learn-support.js';

/** "held-out AUROC X vs Y in force, log loss A vs B": [X, Y, A, B]. */
const figuresOf = (reason: string): string[] => [...(/held-out AUROC (\S+) vs (\S+) in force, log loss (\S+) vs (\S+) /.exec(reason) ?? [])].slice(1);

describe('--forecast-learn: an own model fitted here, checked held out', () => {
  it('refits it by its procedure per fold (a tie with the candidate on new sessions), lists it as learned here, and skips it with no new session', async () => {
    const dir = await tempDir();
    const s = await learningServer(dir, blind, {}, { minRuns: 4, minClass: 2 });
    try {
      const made = await report(
        s,
        'own',
        runs.map((run) => ({ run, passed: run.passed })),
      );
      const own = made.map((a) => a.reason.split('; ').find((r) => r.startsWith(`${AGENT} + (any model)`)) ?? '');
      const first = own.findIndex((r) => r.includes(': accepted,'));
      expect(first, own.join('\n')).toBeGreaterThanOrEqual(0);
      const later = own.slice(first + 1);
      expect(later.length).toBeGreaterThanOrEqual(1);
      for (const r of later) {
        // Both sides out of fold by the same procedure on the same sessions: equal figures, so the refit on more sessions goes in.
        expect(r, own.join('\n')).toMatch(/: accepted, candidate is not worse within source/);
        const [heldAuroc, inAuroc, heldLoss, inLoss] = figuresOf(r);
        expect(heldAuroc).toBe(inAuroc);
        expect(heldLoss).toBe(inLoss);
      }
      const info = (await (await fetch(`${s.srv.url}/v1/forecast`)).json()) as { models: Array<{ match: { agent?: string }; trainedOn: { runs: number }; learnedOwn?: unknown }> };
      const model = info.models.find((m) => m.match.agent === AGENT)!;
      expect(model.trainedOn.runs).toBe(runs.length);
      expect(model.learnedOwn).toEqual({ lambda: 0.01, kappa: 10 });

      // A session of another agent: a pass runs, and the source whose own model saw every session of it is skipped.
      const before = made.length;
      const c = await Client.connect(s.srv.wsUrl);
      const run = runs[0]!;
      c.send({ type: 'start', session: 'other-0', task: run.task, agent: 'another-agent' });
      await c.nextOf('started', 'other-0');
      run.steps.forEach((step, seq) => c.send({ type: 'step', session: 'other-0', seq, step }));
      for (const _step of run.steps) await c.nextOf('score', 'other-0');
      c.send({ type: 'outcome', session: 'other-0', passed: run.passed });
      c.send({ type: 'end', session: 'other-0' });
      await c.nextOf('final', 'other-0');
      c.close();
      let last = '';
      for (let k = 0; k < 200; k++) {
        const attempts = (await s.info()).learning.attempts;
        if (attempts.length > before && attempts.at(-1)!.sessions === runs.length + 1) {
          last = attempts.at(-1)!.reason;
          break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(last).toMatch(new RegExp(`${AGENT} \\+ \\(any model\\): skipped, its own model in force was fitted here on these ${runs.length} sessions`));
    } finally {
      await s.srv.app.close();
      await removeDir(dir);
    }
  }, 120_000);
});
