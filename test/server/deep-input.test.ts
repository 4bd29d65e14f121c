/**
 * F6: deeply nested input overflowed the stack: a shell command of 50,000 nested `if`s in `shell-walk`, a
 * trajectory of 100,000 nested arrays in `describeDocument`. The WebSocket answered `internal` without a
 * seq while consuming it (a resend got no answer, the next seq was scored as t=0), HTTP answered 500 and one
 * such item failed a whole batch. Walks are now iterative and JSON deeper than the limit is refused by name;
 * a refused step leaves its seq untouched; a batch reports the item alone.
 */
import { describe, expect, it } from 'vitest';
import { describeDocument } from '../../src/formats/index.js';
import { createShellAnalyzer } from '../../src/syntax/index.js';
import { ASTROID, Client, readDoc, useApp } from './helpers.js';

const N = 100_000;
const deepArray = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
const nestedIfs = (n: number): string => `${'if true; then '.repeat(n)}ls${'; fi'.repeat(n)}`;
const STEP = { tool: 'bash', action: { kind: 'shell', command: 'ls' } };

const server = useApp();

const post = (path: string, body: string): Promise<Response> => fetch(`${server().url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

describe('deep input, in process', () => {
  it('the shell analyzer walks 50,000 nested ifs without overflowing', () => {
    const parsed = createShellAnalyzer({ maxParseChars: Number.MAX_SAFE_INTEGER }).parse(nestedIfs(50_000));
    expect(parsed.ok).toBe(false);
    expect(Array.isArray(parsed.commands)).toBe(true);
  });

  it('describeDocument names a deeply nested array without overflowing', () => {
    expect(describeDocument(JSON.parse(deepArray(N)))).toMatch(/^an array whose first element is an array/);
  });
});

describe('deep input over the wire', () => {
  it('scores a step whose command nests 50,000 ifs, and keeps the seq count', async () => {
    const c = await Client.connect(server().wsUrl);
    c.send({ type: 'start', session: 'ifs', task: 't' });
    await c.nextOf('started', 'ifs');
    c.send({ type: 'step', session: 'ifs', seq: 0, step: { tool: 'bash', action: { kind: 'shell', command: nestedIfs(50_000) } } });
    expect(await c.next((f) => f.session === 'ifs')).toMatchObject({ type: 'score', seq: 0, t: 0 });
    c.send({ type: 'step', session: 'ifs', seq: 1, step: STEP });
    expect(await c.nextOf('score', 'ifs')).toMatchObject({ seq: 1, t: 1 });
    c.close();
  });

  it('refuses a frame nested past the limit with bad_message and its seq, and takes the seq again', async () => {
    const c = await Client.connect(server().wsUrl);
    c.send({ type: 'start', session: 'deep', task: 't' });
    await c.nextOf('started', 'deep');
    c.send(`{"type":"step","session":"deep","seq":0,"step":{"tool":"x","action":{"kind":"none"},"args":{"a":${deepArray(N)}}}}`);
    expect(await c.next((f) => f.session === 'deep')).toMatchObject({ type: 'error', code: 'bad_message', seq: 0, message: expect.stringMatching(/nested deeper than \d+ levels/) });
    c.send({ type: 'step', session: 'deep', seq: 0, step: STEP });
    expect(await c.nextOf('score', 'deep')).toMatchObject({ seq: 0, t: 0 });
    c.close();
  });

  it('answers 400 naming the trajectory over HTTP, never 500', async () => {
    const res = await post('/v1/score', `{"task":"t","trajectory":${deepArray(N)}}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'bad_input', message: expect.stringMatching(/^body\.trajectory: .*nested deeper than/) } });
    const reward = await post('/get_reward', JSON.stringify({ query: [deepArray(N)], labels: ['t'] }));
    expect(reward.status).toBe(400);
    expect(await reward.json()).toMatchObject({ error: { message: expect.stringMatching(/^query\[0\]: .*nested deeper than/) } });
  });

  it('fails the deep item of a batch alone', async () => {
    const good = JSON.stringify({ task: ASTROID.task, format: 'mini-swe-agent', trajectory: await readDoc(ASTROID.fail) });
    const res = await post('/v1/score/batch', `{"items":[{"task":"t","trajectory":${deepArray(N)}},${good}]}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: Array<Record<string, unknown>> };
    expect(body.results[0]).toMatchObject({ error: { code: 'bad_input', message: expect.stringMatching(/^items\[0\]\.trajectory: .*nested deeper than/) } });
    expect(body.results[1]).toHaveProperty('score');
  });
});
