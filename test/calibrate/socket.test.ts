/**
 * The policy `steplens calibrate --out` writes, loaded by a real server as its
 * default, fires its first stop on exactly the step the calibration predicted,
 * for every real corpus run the server scores reference-free (tasks the
 * server's seed references do not hold), over a real WebSocket.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { TradeoffResult } from '../../src/core/calibrate/index.js';
import { readCorpusInput } from '../../src/cli/corpus-input.js';
import { dataText } from '../../src/client/frames.js';
import { bundledReferencesDir } from '../../src/package-files.js';
import { buildApp } from '../../src/server/app.js';
import { readPolicyFile } from '../../src/settings-files.js';
import { CORPUS, cli } from '../cli/run-cli.js';

type Frame = { type: string; session?: string; seq?: number; severity?: string; kind?: string };

/** Streams one run's steps in a session; resolves with every frame of that session up to `final`. */
function streamRun(ws: WebSocket, session: string, task: string, steps: readonly unknown[]): Promise<Frame[]> {
  return new Promise((resolve, reject) => {
    const frames: Frame[] = [];
    const onMessage = (data: WebSocket.RawData) => {
      const f = JSON.parse(dataText(data)) as Frame;
      if (f.session !== session) return;
      frames.push(f);
      if (f.type === 'error') reject(new Error(`server error: ${dataText(data)}`));
      if (f.type === 'final') {
        ws.off('message', onMessage);
        resolve(frames);
      }
    };
    ws.on('message', onMessage);
    ws.send(JSON.stringify({ type: 'start', session, task }));
    steps.forEach((step, seq) => ws.send(JSON.stringify({ type: 'step', session, seq, step })));
    ws.send(JSON.stringify({ type: 'end', session }));
  });
}

describe('calibrated policy over a real socket', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steplens-cal-socket-'));
  const out = join(dir, 'policy.json');
  let app: FastifyInstance | undefined;
  let ws: WebSocket | undefined;
  let tradeoff: TradeoffResult;

  beforeAll(async () => {
    const run = await cli('calibrate', CORPUS, '--json', '--split', 'none', '--max-false-stop', '0.1', '--out', out);
    if (run.code !== 0) throw new Error(run.stderr);
    tradeoff = (JSON.parse(run.stdout) as { tradeoff: TradeoffResult }).tradeoff;
    const policy = await readPolicyFile(out);
    app = await buildApp({ policy, dataDir: join(dir, 'data'), seedDirs: [bundledReferencesDir()], logLevel: 'silent' });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    ws = new WebSocket(`${address.replace(/^http/, 'ws')}/v1/stream`);
    await new Promise<void>((resolve, reject) => {
      ws!.once('open', () => resolve());
      ws!.once('error', reject);
    });
  });

  afterAll(async () => {
    ws?.close();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fires the first stop at the predicted step for each run, and none where none was predicted', async () => {
    const seeded = new Set(readdirSync(bundledReferencesDir()).map((f) => f.replace(/\.json$/, '')));
    const byId = new Map(readCorpusInput([CORPUS], {}, process.cwd(), 'calibrate').found.trajectories.map((t) => [t.id, t]));
    const runs = tradeoff.chosen.runs.filter((r) => !seeded.has(r.task));
    expect(runs.length).toBeGreaterThan(20);
    expect(runs.some((r) => r.stopAt.referenceFree !== null && !r.passed)).toBe(true);
    const observed: Array<{ id: string; predicted: number | null; streamed: number | null }> = [];
    for (const [i, r] of runs.entries()) {
      const t = byId.get(r.id)!;
      const frames = await streamRun(ws!, `s${i}`, r.task, t.steps);
      expect(frames.filter((f) => f.type === 'score')).toHaveLength(r.steps);
      const stop = frames.find((f) => f.type === 'signal' && f.severity === 'stop');
      observed.push({ id: r.id, predicted: r.stopAt.referenceFree, streamed: stop?.seq ?? null });
    }
    expect(observed.map((o) => o.streamed)).toEqual(observed.map((o) => o.predicted));
  });
});
