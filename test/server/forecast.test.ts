/**
 * `serve --forecast` and `--forecast-learn` over a real socket with real runs:
 * every score frame carries the pPass the offline scorer gives that prefix,
 * final and GET /v1/sessions/:id carry the end value and the model version;
 * sessions that report an outcome retrain their source's model (agent +
 * model), which is swapped in only when its held-out within-source check
 * passes; a session started before the swap keeps its model, so no score
 * already sent (or still to come) changes.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseForecast, selectModel, type ForecastFile, type ForecastModel as Model } from '../../src/core/forecast/model.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { serverMessageSchema } from '../../src/protocol/server-messages.js';
import { sessionStatusSchema } from '../../src/protocol/http-bodies.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { forecastFileOf, labelledRuns, type LabelledRun } from '../forecast/fixtures.js';
import { Client, removeDir, startApp, tempDir } from './helpers.js';

const runs = labelledRuns();
const fitted = forecastFileOf(runs);
/** In force at start: a model that says 2 % for every run, so the first retraining beats it. */
const blind: ForecastFile = { ...fitted, models: [{ ...fitted.models[0]!, weights: fitted.models[0]!.weights.map(() => 0), intercept: -4 }] };

async function stream(c: Client, id: string, run: LabelledRun, passed: boolean | undefined, agent = 'swe-agent 1.1.0') {
  c.send({ type: 'start', session: id, task: run.task, agent });
  await c.nextOf('started', id);
  run.steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  const scores = [];
  for (const _step of run.steps) scores.push(await c.nextOf('score', id)); // one score frame per step
  if (passed !== undefined) c.send({ type: 'outcome', session: id, passed });
  c.send({ type: 'end', session: id });
  const final = await c.nextOf('final', id);
  return { scores, final };
}

describe('serve --forecast', () => {
  it('adds pPass to every score frame (equal to the offline scorer at each prefix), to final and to GET /v1/sessions/:id', async () => {
    const dir = await tempDir();
    const srv = await startApp({ dataDir: dir, forecast: fitted });
    try {
      const run = runs[1]!;
      const c = await Client.connect(srv.wsUrl);
      const { scores, final } = await stream(c, 'f-1', run, false);
      const model = selectModel(fitted, 'swe-agent 1.1.0', undefined)!;
      // The server's store has no PTA for this task: scored against the (empty) prior, like here.
      const offline = scoreSteps(run.steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers(), forecast: model });
      scores.forEach((s, i) => {
        expect(serverMessageSchema.safeParse(s).success).toBe(true);
        expect(s.pPass).toBe(offline.results[i]!.pPass);
      });
      expect(final.pPass).toBe(offline.report.pPass);
      expect(final.forecastVersion).toBe(1);
      expect(serverMessageSchema.safeParse(final).success).toBe(true);
      const status = (await (await fetch(`${srv.url}/v1/sessions/f-1`)).json()) as Record<string, unknown>;
      expect(sessionStatusSchema.safeParse(status).success).toBe(true);
      expect(status.pPass).toBe(final.pPass);
      expect(status.forecastVersion).toBe(1);
      const scored = (await (
        await fetch(`${srv.url}/v1/score`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ task: run.task, trajectory: JSON.parse(await readFile(run.file, 'utf8')) }),
        })
      ).json()) as Record<string, unknown>;
      expect(scored.pPass).toBe(offline.report.pPass);
      c.close();
    } finally {
      await srv.app.close();
      await removeDir(dir);
    }
  });

  /** A server with two models: the default and one of runs[1]'s own source (another calibration); `offline(m)`: pPass of runs[1] by m. */
  async function withSourceModel(
    test: (t: { srv: Awaited<ReturnType<typeof startApp>>; run: LabelledRun; trajectory: unknown; base: Model; own: Model; offline: (m: Model) => number | undefined }) => Promise<void>,
  ) {
    const dir = await tempDir();
    const run = runs[1]!;
    const base = fitted.models[0]!;
    const own = { ...base, match: { agent: run.agent, model: run.model }, calibration: { a: -2, b: 1 } };
    const srv = await startApp({ dataDir: dir, forecast: { ...fitted, models: [base, own] } });
    try {
      const trajectory = JSON.parse(await readFile(run.file, 'utf8')) as unknown;
      const offline = (m: Model) => scoreSteps(run.steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers(), forecast: m }).report.pPass;
      expect(offline(own)).not.toBe(offline(base));
      await test({ srv, run, trajectory, base, own, offline });
    } finally {
      await srv.app.close();
      await removeDir(dir);
    }
  }

  it("POST /v1/score picks the run's source's model: by the body's agent and model, else by the ones the log names", () =>
    withSourceModel(async ({ srv, run, trajectory, base, own, offline }) => {
      const post = async (extra: Record<string, string>) =>
        (await (await fetch(`${srv.url}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task: run.task, trajectory, ...extra }) })).json()) as {
          pPass?: number;
        };
      // The log names its agent and model: its source's model.
      expect((await post({})).pPass).toBe(offline(own));
      // The body names another source: the default.
      expect((await post({ agent: 'another agent' })).pPass).toBe(offline(base));
      expect((await post({ agent: run.agent, model: run.model })).pPass).toBe(offline(own));
    }));

  it("POST /v1/rank picks each run's source's model as POST /v1/score does: the run's agent and model, else the body's, else its log's", () =>
    withSourceModel(async ({ srv, run, trajectory, base, own, offline }) => {
      const rank = async (body: Record<string, unknown>, extra: Record<string, string> = {}) => {
        const res = await fetch(`${srv.url}/v1/rank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ runs: [{ trajectory, ...extra }], ...body }) });
        return (await res.json()) as { runs?: Array<{ pPass?: number }> };
      };
      expect((await rank({})).runs?.[0]?.pPass).toBe(offline(own));
      expect((await rank({ agent: 'another agent' })).runs?.[0]?.pPass).toBe(offline(base));
      // A run's own source wins over the body's.
      expect((await rank({ agent: 'another agent' }, { agent: run.agent, model: run.model })).runs?.[0]?.pPass).toBe(offline(own));
      // A session was scored with the source its start named: naming one on it is one clear error.
      const refused = await fetch(`${srv.url}/v1/rank`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ runs: [{ session: 's', agent: 'a' }] }) });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain('agent and model are for a trajectory');
    }));

  it("--forecast-learn: retrains from sessions with an outcome, swaps in a model that is not worse, keeps versions, never changes a session's scores", async () => {
    const dir = await tempDir();
    const srv = await startApp({ dataDir: dir, forecast: blind, forecastLearn: { intervalMs: 100, minRuns: 10, minClass: 3, dir: path.join(dir, 'forecasts') } });
    try {
      const c = await Client.connect(srv.wsUrl);
      // A session that starts under version 1 and stays open across the swap.
      const early = runs[0]!;
      c.send({ type: 'start', session: 'early', task: early.task, agent: 'swe-agent 1.1.0' });
      await c.nextOf('started', 'early');
      const half = Math.floor(early.steps.length / 2);
      for (let seq = 0; seq < half; seq++) c.send({ type: 'step', session: 'early', seq, step: early.steps[seq] });
      const before = [];
      for (let i = 0; i < half; i++) before.push(await c.nextOf('score', 'early'));
      type Info = { version: number; history: Array<{ version: number; source: string }>; learning: { sessions: number; attempts: Array<{ result: string; sessions: number; version?: number }> } };
      let info: Info | undefined;
      // One session at a time, each followed by the schedule's attempt with it: the attempts (and so which
      // candidate is accepted) do not depend on how the machine's load spaces the ticks.
      for (const [i, run] of runs.entries()) {
        await stream(c, `r-${i}`, run, run.passed);
        for (let k = 0; k < 150; k++) {
          info = (await (await fetch(`${srv.url}/v1/forecast`)).json()) as Info;
          if (info.learning.attempts.at(-1)?.sessions === i + 1) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(info!.learning.sessions).toBe(runs.length);
      const accepted = info!.learning.attempts.filter((a) => a.result === 'accepted');
      // The first check against the blind model passes; later candidates are checked against the learned model refitted out of fold.
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      expect(info!.version).toBe(1 + accepted.length);
      expect(info!.history.map((h) => [h.version, h.source])).toEqual([[1, 'file'], ...accepted.map((a) => [a.version, 'learned'])]);
      const written = parseForecast(JSON.parse(await readFile(path.join(dir, 'forecasts', `forecast-v${info!.version}.json`), 'utf8')));
      expect(written.ok && written.value.version).toBe(info!.version);
      // The early session keeps version 1: its remaining scores are the blind model's, as offline.
      for (let seq = half; seq < early.steps.length; seq++) c.send({ type: 'step', session: 'early', seq, step: early.steps[seq] });
      const after = [];
      for (let i = half; i < early.steps.length; i++) after.push(await c.nextOf('score', 'early'));
      c.send({ type: 'end', session: 'early' });
      const earlyFinal = await c.nextOf('final', 'early');
      const offlineV1 = scoreSteps(early.steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers(), forecast: blind.models[0]! });
      [...before, ...after].forEach((s, i) => expect(s.pPass).toBe(offlineV1.results[i]!.pPass));
      expect(earlyFinal.forecastVersion).toBe(1);
      // A new session gets version 2, whose scores are the learned model's.
      const { scores, final } = await stream(c, 'late', runs[2]!, undefined);
      expect(final.forecastVersion).toBe(info!.version);
      const offlineV2 = scoreSteps(runs[2]!.steps, {
        reference: { kind: 'prior', prior: UNIFORM_PRIOR },
        analyzers: defaultAnalyzers(),
        // The learned model is the sessions' source's own (agent swe-agent 1.1.0); the default stays the blind one.
        forecast: written.ok ? selectModel(written.value, 'swe-agent 1.1.0', undefined)! : blind.models[0]!,
      });
      scores.forEach((s, i) => expect(s.pPass).toBe(offlineV2.results[i]!.pPass));
      expect(scores.some((s, i) => s.pPass !== offlineV1.results[i]?.pPass)).toBe(true);
      c.close();
    } finally {
      await srv.app.close();
      await removeDir(dir);
    }
  });

  it('--forecast-learn: a new agent + model with a few outcomes (too few for a model of its own) gets its pPass recalibrated; GET /v1/forecast lists it', async () => {
    const dir = await tempDir();
    // Default schedule thresholds: 20 sessions before a model of its own; 5 outcomes recalibrate.
    const srv = await startApp({ dataDir: dir, forecast: blind, forecastLearn: { intervalMs: 100, dir: path.join(dir, 'forecasts') } });
    try {
      const c = await Client.connect(srv.wsUrl);
      const some = runs.slice(0, 8);
      type Model = { match: { agent?: string }; calibration: { a: number; b: number }; recalibrated?: { outcomes: number; passing: number } };
      type Info = { version: number; models: Model[]; learning: { attempts: Array<{ result: string; sessions: number; reason: string }> } };
      let info: Info | undefined;
      for (const [i, run] of some.entries()) {
        await stream(c, `n-${i}`, run, run.passed, 'fresh-agent');
        for (let k = 0; k < 150; k++) {
          info = (await (await fetch(`${srv.url}/v1/forecast`)).json()) as Info;
          if (info.learning.attempts.at(-1)?.sessions === i + 1) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      const own = info!.models.find((m) => m.match.agent === 'fresh-agent');
      expect(own?.recalibrated).toEqual({ outcomes: 8, passing: some.filter((r) => r.passed).length, from: blind.models[0]!.calibration });
      expect(info!.learning.attempts.at(-1)!.reason).toMatch(/recalibrated on 8 outcomes/);
      // A new session of that agent is scored by the recalibrated model: offline with it, to the bit, and far above the blind 2 %.
      const written = parseForecast(JSON.parse(await readFile(path.join(dir, 'forecasts', `forecast-v${info!.version}.json`), 'utf8')));
      expect(written.ok).toBe(true);
      if (!written.ok) return;
      const { scores } = await stream(c, 'late', runs[9]!, undefined, 'fresh-agent');
      const offline = scoreSteps(runs[9]!.steps, {
        reference: { kind: 'prior', prior: UNIFORM_PRIOR },
        analyzers: defaultAnalyzers(),
        forecast: selectModel(written.value, 'fresh-agent', undefined)!,
      });
      scores.forEach((x, i) => expect(x.pPass).toBe(offline.results[i]!.pPass));
      expect(scores.at(-1)!.pPass!).toBeGreaterThan(0.2);
      // Another agent still gets the blind model.
      const other = await stream(c, 'other', runs[9]!, undefined, 'another-agent');
      expect(other.scores.at(-1)!.pPass!).toBeLessThan(0.05);
      c.close();
    } finally {
      await srv.app.close();
      await removeDir(dir);
    }
  });

  type VersionsInfo = { version: number; history: Array<{ version: number }>; learning: { sessions: number; attempts: Array<{ sessions: number }> } };

  /** A server over `dir` that learns, keeping 2 version files, streams `some` (the new agent's outcomes): GET /v1/forecast after. */
  async function learnVersions(dir: string, some: readonly LabelledRun[], tag: string): Promise<VersionsInfo> {
    const srv = await startApp({ dataDir: dir, forecast: blind, forecastLearn: { intervalMs: 100, dir: path.join(dir, 'forecasts') }, limits: { forecastVersions: 2 } });
    try {
      const c = await Client.connect(srv.wsUrl);
      let info: VersionsInfo | undefined;
      // Sessions kept before a restart are read back (forecast-runs.ts): each attempt sees them too.
      const kept = ((await (await fetch(`${srv.url}/v1/forecast`)).json()) as VersionsInfo).learning.sessions;
      // Each outcome from the fifth on recalibrates the new agent: a version (and a file) per session.
      for (const [i, run] of some.entries()) {
        await stream(c, `${tag}-${i}`, run, run.passed, 'fresh-agent');
        for (let k = 0; k < 150; k++) {
          info = (await (await fetch(`${srv.url}/v1/forecast`)).json()) as VersionsInfo;
          if (info.learning.attempts.at(-1)?.sessions === kept + i + 1) break;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      c.close();
      return info!;
    } finally {
      await srv.app.close();
    }
  }

  it('--forecast-learn keeps the newest forecastVersions version files of a directory, not one per version for good', async () => {
    const dir = await tempDir();
    try {
      const info = await learnVersions(dir, runs.slice(0, 9), 'v');
      expect(info.version).toBeGreaterThan(3);
      // GET /v1/forecast still lists every version put in force; the disk holds the newest two.
      expect(info.history.length).toBe(info.version);
      // Beside them, the kept sessions (forecast-runs.ts) and the attempts (forecast-attempts.ts).
      expect((await readdir(path.join(dir, 'forecasts'))).sort()).toEqual([`forecast-v${info.version - 1}.json`, `forecast-v${info.version}.json`, 'attempts.json', 'runs.jsonl'].sort());
    } finally {
      await removeDir(dir);
    }
  });

  it('after a restart version numbers go on after the highest on disk: the version put in force is kept, no file overwritten', async () => {
    const dir = await tempDir();
    try {
      const before = await learnVersions(dir, runs.slice(0, 9), 'a');
      // The restarted server puts the last version back in force (forecast-restart.test.ts) and numbers on from it.
      const after = await learnVersions(dir, runs.slice(0, 5), 'b');
      expect(after.version).toBeGreaterThan(before.version);
      const files = (await readdir(path.join(dir, 'forecasts'))).filter((f) => f.startsWith('forecast-v'));
      expect(files).toContain(`forecast-v${after.version}.json`);
      expect(files.length).toBe(2);
    } finally {
      await removeDir(dir);
    }
  });
});
