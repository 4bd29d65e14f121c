import { describe, expect, it } from 'vitest';
import replay from '../../src/cli/commands/replay.js';
import type { CliIO } from '../../src/cli/command.js';
import { ASTROID, readSteps, useApp } from '../server/helpers.js';

const app = useApp();

describe('steplens replay --reconnect', () => {
  it('resumes after the server drops the socket mid-run: every step printed once, then the final', async () => {
    const steps = await readSteps(ASTROID.passB);
    let out = '';
    let err = '';
    let dropped = 0;
    const io: CliIO = {
      stdout: (s) => {
        out += s;
        const frame = JSON.parse(s) as { type: string; t?: number };
        if (frame.type === 'score' && frame.t === 10) {
          for (const ws of app().app.websocketServer.clients) ws.terminate();
          dropped++;
        }
      },
      stderr: (s) => void (err += s),
      stderrIsTTY: false,
      cwd: process.cwd(),
      env: {},
    };
    const code = await replay.run([ASTROID.passB, '--url', app().url, '--task', ASTROID.task, '--json', '--reconnect', '--passed'], io);
    expect([code, err, dropped]).toEqual([0, '', 1]);
    const frames = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; t?: number; steps?: number; passed?: boolean });
    expect(frames.filter((f) => f.type === 'score').map((f) => f.t)).toEqual(steps.map((_, i) => i));
    expect(frames.at(-1)).toMatchObject({ type: 'final', steps: steps.length, passed: true });
  });
});
