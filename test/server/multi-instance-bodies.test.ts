/**
 * An OpenHands `output.jsonl` sent whole as a body's `trajectory` (its array of lines: the protocol allows an
 * array of records for a line-based log) holds several runs. It was scored as its first line whatever `task` said,
 * and `POST /v1/tasks/B/references` learned task A's run into B's PTA. Now the instance whose `instance_id` is the
 * task is taken; a body naming no such task is refused, naming the instances.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CORPUS, useInjectApp } from './helpers.js';

/** A real output.jsonl of three instances (Multi-SWE-bench examples). */
const FILE = `${CORPUS}/OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl`;
const app = useInjectApp({ scoringWorkers: 0 });

const post = async (url: string, body: unknown) => {
  const res = await app().inject({ method: 'POST', url, payload: body as Record<string, unknown> });
  return { status: res.statusCode, body: res.json<Record<string, unknown> & { error?: { code: string; message: string } }>() };
};

describe('a body holding a multi-instance log', () => {
  it('is scored as the instance of its task, the same as that line alone', async () => {
    const lines = (await readFile(FILE, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { instance_id: string });
    expect(lines.length).toBe(3);
    const alone = [];
    const whole = [];
    for (const line of lines) {
      alone.push(await post('/v1/score', { task: line.instance_id, format: 'openhands', trajectory: [line] }));
      whole.push(await post('/v1/score', { task: line.instance_id, format: 'openhands', trajectory: lines }));
    }
    expect(alone.map((r) => r.status)).toEqual([200, 200, 200]);
    // Three different runs (23, 33, 49 steps), each scored as itself from the whole file.
    expect(new Set(alone.map((r) => r.body.steps)).size).toBe(3);
    expect(whole.map((r) => r.body)).toEqual(alone.map((r) => r.body));
  });

  it('naming no task among its instances is refused (bad_input, 400) naming them; a reference is not learned from another task', async () => {
    const lines = (await readFile(FILE, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { instance_id: string });
    const ids = lines.map((l) => l.instance_id);
    const refused = await post('/v1/score', { task: 'some-other-task', format: 'openhands', trajectory: lines });
    expect(refused.status).toBe(400);
    expect(refused.body.error?.code).toBe('bad_input');
    expect(refused.body.error?.message).toBe(`body.trajectory: a log of 3 instances (${ids.join(', ')}); none is task some-other-task, or send that instance alone`);
    const wrongTask = await post('/v1/tasks/some-other-task/references', { format: 'openhands', trajectory: lines });
    expect(wrongTask.status).toBe(400);
    const learned = await post(`/v1/tasks/${ids[2]}/references`, { format: 'openhands', trajectory: lines });
    expect(learned.status).toBe(201);
    const third = await post('/v1/score', { task: ids[2], format: 'openhands', trajectory: [lines[2]] });
    expect(learned.body.steps).toBe(third.body.steps);
  });
});
