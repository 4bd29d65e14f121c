/**
 * A log that names no task is of the task its file (or folder) name says, for every command, as `report`
 * reads it: SWE-agent 0.x writes `<instance_id>.traj` and keeps the id nowhere inside (issue 23, item 7).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const SWE0 = join(import.meta.dirname, '../../examples/runs/swe-agent-0/gpt-4o-2024-05-13/fasterxml__jackson-databind-4486.traj');
const TASK = 'fasterxml__jackson-databind-4486';

describe('the task of a SWE-agent 0.x log', () => {
  it('label prints it (terminal and --json)', async () => {
    expect((await cli('label', SWE0)).stdout).toContain(`swe-agent ${TASK}: 17 steps`);
    expect((JSON.parse((await cli('label', SWE0, '--json')).stdout) as { task?: string }).task).toBe(TASK);
  });

  it('score and report name the same task', async () => {
    expect((JSON.parse((await cli('score', SWE0, '--json')).stdout) as { task?: string }).task).toBe(TASK);
    const report = JSON.parse((await cli('report', '--json', SWE0)).stdout) as { trajectories: Array<{ task: string | null }> };
    expect(report.trajectories.map((t) => t.task)).toEqual([TASK]);
  });
});
