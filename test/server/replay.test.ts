import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import replay, { streamUrl } from '../../src/cli/commands/replay.js';
import type { CliIO } from '../../src/cli/command.js';
import { ASTROID, readSteps, removeDir, startApp, tempDir, type Running } from './helpers.js';

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
    stderrIsTTY: false, cwd: process.cwd(), env: {} as NodeJS.ProcessEnv,
  });
}

describe('steplens replay', () => {
  it('streams a real trajectory as raw events and prints every score, then the final', async () => {
    const steps = await readSteps(ASTROID.fail);
    const out = io();
    const code = await replay.run([ASTROID.fail, '--url', srv.url, '--task', ASTROID.task, '--token', 'tok', '--failed'], out);
    expect(out.err).toBe('');
    expect(code).toBe(0);
    expect(out.out.split('\n').filter((l) => l.startsWith('seq '))).toHaveLength(steps.length);
    expect(out.out).toMatch(/^session replay-.* \(mini-swe-agent, reference \{"kind":"prior"\}\)$/m);
    expect(out.out).toMatch(new RegExp(`^final: score .* tier (Partial-fail|Off-track).*, ${steps.length} steps, stages [EIVO]+$`, 'm'));
  });

  it('prints JSON frames with --json', async () => {
    const out = io();
    await replay.run([ASTROID.passA, '--url', srv.wsUrl, '--task', ASTROID.task, '--token', 'tok', '--json'], out);
    const frames = out.out.trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(frames[0]?.type).toBe('started');
    expect(frames.at(-1)?.type).toBe('final');
  });

  it('fails with one clear line on a refused or unreachable server and bad usage', async () => {
    await expect(replay.run([ASTROID.fail, '--url', srv.url, '--task', 't'], io())).rejects.toThrow(/refused the connection \(HTTP 401\)/);
    await expect(replay.run([ASTROID.fail, '--url', 'http://127.0.0.1:1', '--task', 't'], io())).rejects.toThrow(/cannot reach/);
    await expect(replay.run([ASTROID.fail, '--task', 't'], io())).rejects.toThrow(/--url is required/);
    expect(() => streamUrl('ftp://x')).toThrow(/expected http/);
    expect(streamUrl('http://127.0.0.1:8787')).toBe('ws://127.0.0.1:8787/v1/stream');
  });
});
