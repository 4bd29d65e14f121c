/**
 * `score` and `rank --agent A --model M`: the run's source chooses its model in the forecast file, as `report
 * --manifest` names it (and as POST /v1/score's agent and model do). A SWE-agent 0.x log names no model, so without
 * the flags it gets the default model: another pPass for the same run (review s42).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { cli } from './run-cli.js';

const TASK = 'fasterxml__jackson-databind-4486';
/** A real SWE-agent 0.x run (its log names no model). */
const RUN = path.join(packageRoot(), `examples/runs/swe-agent-0/gpt-4o-2024-05-13/${TASK}.traj`);
const SOURCE = ['--agent', 'SWE-agent 0.x', '--model', 'gpt-4'];

describe('score and rank --agent / --model', () => {
  it("give the pPass report --manifest gives the run under that source, not the default model's", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steplens-forecast-source-'));
    mkdirSync(path.join(dir, 'run'));
    copyFileSync(RUN, path.join(dir, 'run', `${TASK}.traj`));
    writeFileSync(path.join(dir, 'manifest.jsonl'), `${JSON.stringify({ file: `run/${TASK}.traj`, agent: 'SWE-agent 0.x', model: 'gpt-4' })}\n`);
    const report = await cli('report', path.join(dir, 'run'), '--manifest', path.join(dir, 'manifest.jsonl'), '--forecast', 'bundled', '--json');
    const row = (JSON.parse(report.stdout) as { trajectories: Array<{ pPass: number; source: string }> }).trajectories[0]!;
    expect(row.source).toBe('SWE-agent 0.x + gpt-4');

    const score = await cli('score', RUN, '--forecast', 'bundled', ...SOURCE, '--json');
    expect(score.code, score.stderr).toBe(0);
    expect((JSON.parse(score.stdout) as { pPass: number }).pPass).toBe(row.pPass);
    const rank = await cli('rank', RUN, '--forecast', 'bundled', ...SOURCE, '--json');
    expect(rank.code, rank.stderr).toBe(0);
    expect((JSON.parse(rank.stdout) as { runs: Array<{ pPass: number }> }).runs[0]!.pPass).toBe(row.pPass);
    // Without them, the default model: another figure.
    const plain = JSON.parse((await cli('score', RUN, '--forecast', 'bundled', '--json')).stdout) as { pPass: number };
    expect(plain.pPass).not.toBe(row.pPass);
  }, 60_000);

  it('are in --help, and refused empty or without --forecast (they would choose nothing)', async () => {
    for (const verb of ['score', 'rank']) {
      expect((await cli(verb, '--help')).stdout).toContain('--agent A');
      expect(await cli(verb, RUN, '--model', 'gpt-4')).toMatchObject({ code: 1, stderr: `steplens ${verb}: --model chooses the forecast model of the run's source: give --forecast too\n` });
      expect(await cli(verb, RUN, '--forecast', 'bundled', '--agent', ' ')).toMatchObject({ code: 1, stderr: `steplens ${verb}: --agent must not be empty\n` });
    }
  });
});
