/**
 * A `POST /get_reward` body was one `JSON.parse` in the scoring worker: an RL trainer's 64 MiB batch of rollouts held
 * every other tenant's job there for its whole length. It is now read a query (prompt, label) at a time
 * (body-in-slices.ts), the worker's event loop turning every PARSE_SLICE_BYTES, with the same answers and errors: a body
 * the slices do not take for certain is parsed whole as before. The same JSON with its `query` key escaped
 * (`"\u0071uery"`) is not taken by the scan, so it shows what parsing whole answers. Turns are counted, not timed.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { PARSE_SLICE_BYTES, rewardBodyInSlices } from '../../src/server/body-in-slices.js';
import { turnCounter } from '../loop-turns.js';
import { ASTROID } from './helpers.js';
import { inlineJob } from './inline-job.js';

const reward = (body: string, turnsAtAsk?: number[], turns?: () => number) => inlineJob('reward', body, turnsAtAsk, turns);

/** The same JSON, its `query` key escaped: parsed whole. */
const escaped = (body: string): string => body.replaceAll('"query"', '"\\u0071uery"');

const runs = Promise.all([ASTROID.passA, ASTROID.fail].map((f) => readFile(f, 'utf8')));
const PROMPT = 'Fix the issue in the repository.\n';

describe('a /get_reward body read a query at a time', () => {
  it('answers as the body parsed whole: real runs as queries, prompts, labels (task id, JSON text), other members', async () => {
    const [pass, fail] = await runs;
    const query = JSON.stringify([PROMPT + pass, PROMPT + fail, fail]);
    const labels = JSON.stringify([ASTROID.task, JSON.stringify({ task: ASTROID.task, passed: false }), ASTROID.task]);
    const prompts = JSON.stringify([PROMPT, PROMPT, '']);
    const body = `{"note":{"a":[1,"]"]},"labels":${labels},"query":${query},"prompts":${prompts}}`;
    expect(await rewardBodyInSlices(Buffer.from(body))).toEqual({ query: JSON.parse(query), prompts: JSON.parse(prompts), labels: JSON.parse(labels) });
    expect(await rewardBodyInSlices(Buffer.from(escaped(body)))).toBeUndefined();
    const sliced = await reward(body);
    expect(sliced.ok).toBe(true);
    expect(sliced).toEqual(await reward(escaped(body)));
    const value = (sliced as { value: { rewards: number[]; extra_logs: { steps: number[] } } }).value;
    expect(value.rewards).toHaveLength(3);
    // The prompt stripped or not, a run is the same run.
    expect(value.rewards[2]).toBe(value.rewards[1]);
    expect(value.extra_logs.steps[0]).toBeGreaterThan(10);
  });

  it("answers and refuses as parsing whole did, whatever the body: schema errors, the job's own errors, a member twice", async () => {
    const [pass, fail] = await runs;
    const run = JSON.stringify(pass);
    const cases = [
      '{"query":[]}',
      '{"query":"x"}',
      '{"query":[1],"labels":["t"]}',
      '{"query":["a"],"prompts":null}',
      '{"query":["a"],"labels":[1]}',
      `{"query":[${Array(1025).fill('"a"').join(',')}]}`,
      `{"query":[${run}],"labels":["a","b"]}`,
      `{"query":[${run}],"labels":[null]}`,
      `{"query":[${run}],"prompts":[${Array(1500).fill('""').join(',')}],"labels":["t"]}`,
      `{"query":["Hello world"],"labels":["t"]}`,
      `{"query":[${run}],"labels":["{\\"task\\": 3}"]}`,
      `{"labels":["t"],"query":[${JSON.stringify(fail)}],"query":[${run}]}`,
      `{"query":[${run}],"labels":["${ASTROID.task}"],"labels":["other-task"]}`,
      '{"labels":["t"]}',
      '["query"]',
    ];
    for (const body of cases) {
      const whole = await reward(escaped(body));
      expect(await reward(body), body.slice(0, 80)).toEqual(whole);
    }
    // A member twice: JSON.parse keeps the last, so the whole parse answers (here: scores the passing run).
    expect(await rewardBodyInSlices(Buffer.from(cases[11]!))).toBeUndefined();
    expect(await reward(cases[11]!)).toEqual(await reward(`{"labels":["t"],"query":[${run}]}`));
    // What the slices leave to the whole parse, and what they take (the reward job refuses it, as ever).
    const taken = await Promise.all(cases.map(async (c) => (await rewardBodyInSlices(Buffer.from(c))) !== undefined));
    expect(taken).toEqual([false, false, false, false, false, false, true, true, false, true, true, false, false, false, false]);
  });

  it("refuses invalid JSON with the whole parse's error", async () => {
    const cases = ['{"query":["a",]}', '{"query":["a"],"x":[1,,2]}', '{"query":["a"]', '{"query":["a"]} x', '{"query":["a\u0001"]}', '{"query":[tru]}', ''];
    for (const body of cases) {
      let message = 'body: empty (send a JSON object)';
      if (body !== '') {
        try {
          JSON.parse(body);
          throw new Error(`valid JSON: ${body}`);
        } catch (error) {
          message = `body: invalid JSON: ${(error as Error).message}`;
        }
      }
      expect(await reward(body)).toEqual({ ok: false, code: 'bad_message', message });
      expect(await rewardBodyInSlices(Buffer.from(body))).toBeUndefined();
    }
  });

  it('turns the event loop while a big body is read, before its first query is scored (parsed whole: no turn)', async () => {
    const [pass] = await runs;
    const query = JSON.stringify(PROMPT + pass);
    const copies = Math.ceil((5 * PARSE_SLICE_BYTES) / query.length);
    const body = `{"query":[${Array(copies).fill(query).join(',')}],"prompts":[${Array(copies).fill(JSON.stringify(PROMPT)).join(',')}],"labels":[${Array(copies).fill(`"${ASTROID.task}"`).join(',')}]}`;
    const counter = turnCounter();
    const atAsk: number[] = [];
    const value = await reward(body, atAsk, counter.turns).finally(counter.stop);
    expect(value.ok).toBe(true);
    expect(atAsk).toHaveLength(copies);
    // Read in slices of PARSE_SLICE_BYTES, a turn after each: parsed whole, no turn came before the first query.
    expect(atAsk[0]).toBeGreaterThanOrEqual(3);
  });
});
