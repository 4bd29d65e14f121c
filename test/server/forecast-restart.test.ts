/**
 * `--forecast-learn` across restarts, over a real socket with real runs: a server started again on the same data
 * directory and the same `--forecast` file puts back in force the newest version it learned (each tenant's own
 * too, never another's; never, in the tenant scope, a shared version learned from every tenant's outcomes in the
 * shared scope), so a new session gets the learned model's pPass, to the bit; a version learned on another
 * `--forecast` file, or one that does not parse, is skipped with a warn line naming it, and startup goes on;
 * version numbers go on after the highest on disk.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseForecast, selectModel, type ForecastFile } from '../../src/core/forecast/model.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import type { LabelledRun } from '../forecast/fixtures.js';
import { Client, removeDir, tempDir } from './helpers.js';
import { AGENT, auth, blind, learningServer as server, other, runs, tokens, type ForecastInfo as Info, type LearningServer } from './forecast-learn-support.js';

/** Streams `run` as the new agent: its score frames' pPass. */
async function stream(c: Client, id: string, run: LabelledRun, passed?: boolean): Promise<Array<number | undefined>> {
  c.send({ type: 'start', session: id, task: run.task, agent: AGENT });
  await c.nextOf('started', id);
  run.steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  const scores: Array<number | undefined> = [];
  for (const _step of run.steps) scores.push((await c.nextOf('score', id)).pPass as number | undefined);
  if (passed !== undefined) c.send({ type: 'outcome', session: id, passed });
  c.send({ type: 'end', session: id });
  await c.nextOf('final', id);
  return scores;
}

/** Reports 6 outcomes of the new agent (flipped with `flip`), each followed by the learner's attempt: a version is accepted. */
async function learn(s: LearningServer, tag: string, token?: string, flip = false): Promise<Info> {
  const c = await Client.connect(s.srv.wsUrl, auth(token));
  let info: Info | undefined;
  // After a restart the sessions kept before it are read back (forecast-runs.ts): attempts count them too.
  const kept = (await s.info(token)).learning.sessions;
  for (const [i, run] of runs.slice(0, 6).entries()) {
    await stream(c, `${tag}-${i}`, run, flip ? !run.passed : run.passed);
    for (let k = 0; k < 150; k++) {
      info = await s.info(token);
      if ((info.learning.attempts.at(-1)?.sessions ?? 0) >= kept + i + 1) break;
      await new Promise((r) => setTimeout(r, 30));
    }
  }
  c.close();
  expect(info!.learning.attempts.some((a) => a.result === 'accepted')).toBe(true);
  return info!;
}

/** The version file `name` of `sub` (DATA/forecasts/`sub`), parsed. */
async function versionFile(dir: string, name: string, sub = ''): Promise<ForecastFile> {
  const parsed = parseForecast(JSON.parse(await readFile(path.join(dir, 'forecasts', sub, name), 'utf8')));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

/** A new session's pPass of runs[9] on `s` equals the new agent's model of `file` offline, to the bit (and not the blind 2 %). */
async function expectScoredBy(s: LearningServer, file: ForecastFile, id: string, token?: string) {
  const probe = runs[9]!;
  const c = await Client.connect(s.srv.wsUrl, auth(token));
  const scores = await stream(c, id, probe);
  c.close();
  const offline = scoreSteps(probe.steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers(), forecast: selectModel(file, AGENT, undefined)! });
  scores.forEach((p, i) => expect(p).toBe(offline.results[i]!.pPass));
  return scores.at(-1)!;
}

/** Runs `body` over a fresh data directory, removed after it (whatever the body did). */
async function withDataDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  try {
    await body(dir);
  } finally {
    await removeDir(dir);
  }
}

/** Runs `body` against a learning server started with `args`, closed after it (whatever the body did). */
async function withServer<T>(args: Parameters<typeof server>, body: (s: LearningServer) => Promise<T>): Promise<T> {
  const s = await server(...args);
  try {
    return await body(s);
  } finally {
    await s.srv.app.close();
  }
}

/** A first server on `dir` (the blind file) learns a version from the new agent's outcomes, then stops: what it learned. */
const learnedBeforeRestart = (dir: string): Promise<Info> => withServer([dir, blind], (first) => learn(first, 'a'));

const warned = (lines: string[], file: string) => lines.some((l) => l.includes('"level":40') && l.includes('forecast version not restored') && l.includes(file));

describe('--forecast-learn across restarts', () => {
  it('a restart on the same data and --forecast puts the learned version back in force: GET /v1/forecast shows it, new sessions get its pPass', async () => {
    await withDataDir(async (dir) => {
      const learned = await learnedBeforeRestart(dir);
      const name = `forecast-v${learned.version}.json`;
      const file = await versionFile(dir, name);

      await withServer([dir, blind], async (second) => {
        const info = await second.info();
        expect(info.version).toBe(learned.version);
        expect(info.history.at(-1)).toEqual(expect.objectContaining({ version: learned.version, source: 'restored', file: name }));
        expect(info.models.find((m) => m.match.agent === AGENT)?.recalibrated?.outcomes).toBeGreaterThanOrEqual(5);
        expect(await expectScoredBy(second, file, 'late')).toBeGreaterThan(0.05);
        // Numbers go on after the restored one: the next version overwrites no file.
        const more = await learn(second, 'b', undefined, true);
        expect(more.version).toBeGreaterThan(learned.version);
        expect(more.history.filter((h) => h.source === 'learned').every((h) => h.version > learned.version)).toBe(true);
      });
    });
  });

  it('a restart with another --forecast file does not restore a version learned on the first (a warn line names it); --forecast-learn-fresh neither', async () => {
    await withDataDir(async (dir) => {
      const learned = await learnedBeforeRestart(dir);
      const name = `forecast-v${learned.version}.json`;

      await withServer([dir, other], async (deployed) => {
        const info = await deployed.info();
        expect(info.version).toBe(other.version);
        expect(info.history).toEqual([expect.objectContaining({ version: other.version, source: 'file' })]);
        expect(info.models.some((m) => m.match.agent === AGENT)).toBe(false);
        expect(warned(deployed.lines, name)).toBe(true);
      });
      await withServer([dir, blind, { forecastLearn: { intervalMs: 50, dir: path.join(dir, 'forecasts'), fresh: true } }], async (fresh) => {
        expect((await fresh.info()).history).toEqual([expect.objectContaining({ source: 'file' })]);
      });
      // Skipped, not deleted: back on the first file, the learned version is in force again.
      await withServer([dir, blind], async (back) => {
        expect((await back.info()).version).toBe(learned.version);
      });
    });
  });

  it('a version file that does not parse is skipped with a warn line naming it: the newest good one is restored, numbers go on after it', async () => {
    await withDataDir(async (dir) => {
      const learned = await learnedBeforeRestart(dir);
      const good = await versionFile(dir, `forecast-v${learned.version}.json`);
      const corrupt = `forecast-v${learned.version + 1}.json`;
      await new Promise((r) => setTimeout(r, 20)); // written after the learned ones
      await writeFile(path.join(dir, 'forecasts', corrupt), '{"format": "steplens-forecast", "models": [');

      await withServer([dir, blind], async (second) => {
        const info = await second.info();
        expect(warned(second.lines, corrupt)).toBe(true);
        expect(info.version).toBe(learned.version);
        await expectScoredBy(second, good, 'late');
        const more = await learn(second, 'b', undefined, true);
        expect(more.version).toBeGreaterThan(learned.version + 1);
      });
    });
  });

  it("two tenants each get their own learned models back, never the other's", async () => {
    await withDataDir(async (dir) => {
      const [a, b] = await withServer([dir, blind, { tokens }], async (first) => [await learn(first, 'a', 'tok-a'), await learn(first, 'b', 'tok-b', true)] as const);
      const fileA = await versionFile(dir, `forecast-v${a.version}.json`, 'tenants/team-a');
      const fileB = await versionFile(dir, `forecast-v${b.version}.json`, 'tenants/team-b');
      expect(await readdir(path.join(dir, 'forecasts', 'tenants'))).toEqual(expect.arrayContaining(['team-a', 'team-b']));

      await withServer([dir, blind, { tokens }], async (second) => {
        const infoA = await second.info('tok-a');
        const infoB = await second.info('tok-b');
        expect(infoA.version).toBe(a.version);
        expect(infoB.version).toBe(b.version);
        expect(infoA.history.filter((h) => h.source === 'restored')).toEqual([expect.objectContaining({ tenant: 'team-a', file: `forecast-v${a.version}.json` })]);
        expect(JSON.stringify(infoA)).not.toContain('team-b');
        expect(JSON.stringify(infoB)).not.toContain('team-a');
        const pA = await expectScoredBy(second, fileA, 'a-late', 'tok-a');
        const pB = await expectScoredBy(second, fileB, 'b-late', 'tok-b');
        expect(pA).not.toBe(pB);
        // The shared models (operators', and any tenant without its own) stay the loaded file's.
        expect((await second.info('tok-op')).version).toBe(blind.version);
      });
    });
  });

  it("each tenant's view numbers its own versions (no gap from another's), and they go on growing across a restart (T91)", async () => {
    await withDataDir(async (dir) => {
      const own = (info: Info) => info.history.filter((h) => h.tenant === 'team-b').map((h) => h.version);
      const before = await withServer([dir, blind, { tokens }], async (first) => {
        await learn(first, 'b1', 'tok-b');
        await learn(first, 'a1', 'tok-a');
        await learn(first, 'b2', 'tok-b', true);
        // An operator's outcomes train the shared models: a new version of B's view too.
        await learn(first, 'o1', 'tok-op');
        return first.info('tok-b');
      });
      const b = own(before);
      // Old code: A's accepted versions left a gap between B's two rounds.
      expect(b).toEqual(Array.from({ length: b.length }, (_, i) => blind.version + 1 + i));
      expect(before.history.at(-1)).toEqual(expect.objectContaining({ source: 'shared', tenant: 'team-b', version: before.version }));

      await withServer([dir, blind, { tokens }], async (second) => {
        const infoB = await second.info('tok-b');
        expect(infoB.version).toBe(before.version);
        const more = await learn(second, 'b3', 'tok-b');
        expect(more.version).toBeGreaterThan(before.version);
        expect(own(more)).toEqual(Array.from({ length: own(more).length }, (_, i) => before.version + i));
      });
    });
  });

  it("a shared version learned in the shared scope is not restored in the tenant scope: one tenant's outcomes never reach another's pPass", async () => {
    await withDataDir(async (dir) => {
      // Shared scope: team-b's made-up outcomes train the models every tenant uses.
      const b = await withServer([dir, blind, { tokens }, { scope: 'shared' }], (first) => learn(first, 'b', 'tok-b', true));
      expect(b.version).toBeGreaterThan(blind.version);

      // Started again in the tenant scope (the default with two tenants): team-a's pPass is the loaded file's again.
      await withServer([dir, blind, { tokens }], async (second) => {
        const infoA = await second.info('tok-a');
        expect(infoA.version).toBe(blind.version);
        expect(infoA.history.filter((h) => h.source === 'restored')).toEqual([]);
        expect(warned(second.lines, `forecast-v${b.version}.json`)).toBe(true);
        await expectScoredBy(second, blind, 'a-late', 'tok-a');
      });
    });
  });
});
