/**
 * What the `--forecast-learn` restart tests share: real labelled runs, a blind forecaster in force at start (2 % for
 * every run, so a few outcomes recalibrate it), another file an operator might deploy instead, two tenants' tokens
 * and an operator's, a server over a data directory with its log lines and `GET /v1/forecast`, and outcomes
 * reported to it one by one, each awaited until the learner's attempt that sees it.
 */
import path from 'node:path';
import { pino } from 'pino';
import { expect } from 'vitest';
import type { ForecastFile } from '../../src/core/forecast/model.js';
import type { ForecastLearnOptions } from '../../src/server/forecast-learn-options.js';
import type { AppOptions } from '../../src/server/options.js';
import { forecastFileOf, labelledRuns, type LabelledRun } from '../forecast/fixtures.js';
import { Client, startApp } from './helpers.js';

export const runs = labelledRuns();
const fitted = forecastFileOf(runs);
/** In force at start: a model that says 2 % for every run, so a few outcomes recalibrate it. */
export const blind: ForecastFile = { ...fitted, models: [{ ...fitted.models[0]!, weights: fitted.models[0]!.weights.map(() => 0), intercept: -4 }] };
/** Another --forecast file: the operator deployed a new model. */
export const other: ForecastFile = { ...blind, createdAt: '2026-12-24T00:00:00.000Z', models: [{ ...blind.models[0]!, intercept: -3 }] };
export const AGENT = 'fresh-agent';
export const tokens = [
  { token: 'tok-a', tenant: 'team-a' },
  { token: 'tok-b', tenant: 'team-b' },
  { token: 'tok-op', tenant: 'platform', role: 'operator' as const },
];
export const auth = (token?: string): Record<string, string> => (token !== undefined ? { authorization: `Bearer ${token}` } : {});

/** What the tests read of `GET /v1/forecast`. */
export type ForecastInfo = {
  version: number;
  models: Array<{ match: { agent?: string }; recalibrated?: { outcomes: number } }>;
  history: Array<{ version: number; source: string; file?: string; tenant?: string }>;
  learning: { sessions: number; attempts: Array<{ at: string; sessions: number; result: string; reason: string; version?: number; tenant?: string }> };
};

/** A server over `dir` learning from `forecast` (versions in DATA/forecasts), its log lines, and GET /v1/forecast. */
export async function learningServer(dir: string, forecast: ForecastFile, extra: Partial<AppOptions> = {}, learn: Partial<ForecastLearnOptions> = {}) {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const srv = await startApp({ dataDir: dir, forecast, logger, forecastLearn: { intervalMs: 50, dir: path.join(dir, 'forecasts'), ...learn }, ...extra });
  const info = async (token?: string) => (await (await fetch(`${srv.url}/v1/forecast`, { headers: auth(token) })).json()) as ForecastInfo;
  return { srv, lines, info };
}
export type LearningServer = Awaited<ReturnType<typeof learningServer>>;

/** Streams each run with its outcome as the new agent and waits for the attempt that sees it (one attempt per session); the attempts made. */
export async function report(s: LearningServer, tag: string, batch: Array<{ run: LabelledRun; passed: boolean }>, token?: string, wait = true): Promise<ForecastInfo['learning']['attempts']> {
  const c = await Client.connect(s.srv.wsUrl, auth(token));
  const made: ForecastInfo['learning']['attempts'] = [];
  const before = (await s.info(token)).learning.sessions;
  for (const [i, { run, passed }] of batch.entries()) {
    const id = `${tag}-${i}`;
    c.send({ type: 'start', session: id, task: run.task, agent: AGENT });
    await c.nextOf('started', id);
    run.steps.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
    for (const _step of run.steps) await c.nextOf('score', id);
    c.send({ type: 'outcome', session: id, passed });
    c.send({ type: 'end', session: id });
    await c.nextOf('final', id);
    if (!wait) continue;
    for (let k = 0; k < 200; k++) {
      const last = (await s.info(token)).learning.attempts.at(-1);
      if (last !== undefined && last.sessions >= before + i + 1) {
        made.push(last);
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(made).toHaveLength(i + 1);
  }
  c.close();
  return made;
}
