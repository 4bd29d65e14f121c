import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import replay, { streamUrl } from '../../src/cli/commands/replay.js';
import type { CliIO } from '../../src/cli/command.js';
import { join } from 'node:path';
import { cli } from '../cli/run-cli.js';
import { ASTROID, CORPUS, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

let dir: string;
let srv: Running;

beforeAll(async () => {
  dir = await tempDir();
  srv = await startApp({ dataDir: dir, tokens: ['tok'] });
});

afterAll(async () => {
  await srv.app.close();
  await removeDir(dir);
});

function io(): CliIO & { out: string; err: string } {
  const o = { out: '', err: '' };
  return Object.assign(o, {
    stdout: (s: string) => void (o.out += s),
    stderr: (s: string) => void (o.err += s),
    stderrIsTTY: false,
    cwd: process.cwd(),
    env: {},
  });
}

describe('steplens replay', () => {
  it('streams a real trajectory as raw events and prints every score, then the final', async () => {
    const steps = await readSteps(ASTROID.fail);
    const out = io();
    const code = await replay.run([ASTROID.fail, '--url', srv.url, '--task', ASTROID.task, '--token', 'tok', '--failed'], out);
    expect(out.err).toBe('');
    expect(code).toBe(0);
    const scores = out.out.split('\n').filter((l) => l.startsWith('seq '));
    expect(scores).toHaveLength(steps.length);
    // A run known to fail never shows a passing tier live: the outcome goes before the steps.
    for (const line of scores) expect(line).toMatch(/ (Partial-fail|Off-track)$/);
    expect(out.out).toMatch(/^session replay-.* \(mini-swe-agent, reference prior \(no PTA for this task\)\)$/m);
    expect(out.out).toMatch(
      new RegExp(
        `^final: score .* \\(no PTA: the server's reference-free composite \\(by default brevity 0\\.5, edit 0\\.4, temp 0\\.1; docs/forecast\\.md\\); coh [0-9.]+, temp [0-9.]+\\), tier (Partial-fail|Off-track), ${steps.length} steps, stages [EIVO]+$`,
        'm',
      ),
    );
    expect(out.out).not.toContain('null');
  });

  it("a file holding several runs needs --instance (the error lists them); --task defaults to the log's", async () => {
    const file = join(CORPUS, 'OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl');
    await expect(replay.run([file, '--url', srv.url, '--token', 'tok'], io())).rejects.toThrow(
      /holds 3 trajectories \(ponylang__ponyc-4595, ponylang__ponyc-4593, ponylang__ponyc-4588\): choose one with --instance ID/,
    );
    const out = io();
    const code = await replay.run([file, '--url', srv.url, '--token', 'tok', '--instance', 'ponylang__ponyc-4593', '--json'], out);
    expect(code).toBe(0);
    const frames = out.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; task?: string; steps?: number });
    expect(frames[0]).toMatchObject({ type: 'started', task: 'ponylang__ponyc-4593' });
    expect(frames.at(-1)?.type).toBe('final');
    const label = await cli('label', file, '--instance', 'ponylang__ponyc-4593', '--json');
    expect(frames.at(-1)?.steps).toBe((JSON.parse(label.stdout) as { steps: unknown[] }).steps.length);
  });

  it('prints JSON frames with --json', async () => {
    const out = io();
    await replay.run([ASTROID.passA, '--url', srv.wsUrl, '--task', ASTROID.task, '--token', 'tok', '--json'], out);
    const frames = out.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(frames[0]?.type).toBe('started');
    expect(frames.at(-1)?.type).toBe('final');
  });

  it('fails with one clear line on a refused or unreachable server and bad usage', async () => {
    await expect(replay.run([ASTROID.fail, '--url', srv.url, '--task', 't'], io())).rejects.toThrow(/refused the connection \(HTTP 401 unauthorized: [^)]+\)/);
    await expect(replay.run([ASTROID.fail, '--url', 'http://127.0.0.1:1', '--task', 't'], io())).rejects.toThrow(/cannot reach/);
    await expect(replay.run([ASTROID.fail, '--task', 't'], io())).rejects.toThrow(/--url is required/);
    expect(() => streamUrl('ftp://x')).toThrow(/expected http/);
    expect(streamUrl('http://127.0.0.1:8787')).toBe('ws://127.0.0.1:8787/v1/stream');
  });
});
