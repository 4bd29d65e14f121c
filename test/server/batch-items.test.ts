/**
 * T31's "Left:": a 64 MiB `POST /v1/score/batch` was one `JSON.parse` in the scoring worker, and every other
 * tenant's job sent there waited behind it. A batch is now read an item at a time (body-in-slices.ts), the worker's event
 * loop turning every PARSE_SLICE_BYTES, with the same answers and errors: a body the slices do not take for certain
 * is parsed whole as before. Turns are counted, not timed.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { batchItemsInSlices, PARSE_SLICE_BYTES } from '../../src/server/body-in-slices.js';
import { turnCounter } from '../loop-turns.js';
import { ASTROID } from './helpers.js';
import { inlineJob } from './inline-job.js';

const batch = (body: string, turnsAtAsk?: number[], turns?: () => number) => inlineJob('batch', body, turnsAtAsk, turns);

const runs = Promise.all([ASTROID.passA, ASTROID.fail].map((f) => readFile(f, 'utf8')));

describe('a batch read an item at a time', () => {
  it('answers as the batch parsed whole: real runs, an item refused, other members', async () => {
    const [pass, fail] = await runs;
    const items = `{"task":"${ASTROID.task}","trajectory":${pass},"passed":true},{"task":"${ASTROID.task}","trajectory":${fail}},{"task":"${ASTROID.task}","trajectory":"not a log"}`;
    const sliced = await batch(`{"note":{"a":[1]},"items":[${items}]}`);
    // The same JSON with the key escaped: the scan does not take it, so this one is parsed whole.
    const parsedWhole = await batch(`{"note":{"a":[1]},"\\u0069tems":[${items}]}`);
    expect(sliced.ok).toBe(true);
    expect(sliced).toEqual(parsedWhole);
    const { results } = JSON.parse((sliced as { value: { text: string } }).value.text) as { results: Array<{ error?: unknown }> };
    expect(results.map((r) => r.error !== undefined)).toEqual([false, false, true]);
  });

  it('refuses what it always refused, with the same error: invalid JSON, an item the schema refuses, no items, too many', async () => {
    const cases = [
      '{"items":[{"task":"t","trajectory":[]},]}',
      '{"items":[{"trajectory":[]}]}',
      '{"items":[]}',
      `{"items":[${Array(1025).fill('{"task":"t","trajectory":"x"}').join(',')}]}`,
      '{"items":[1],"x":[1,,2]}',
    ];
    const answers = await Promise.all(cases.map((c) => batch(c)));
    for (const a of answers) expect(a).toMatchObject({ ok: false, code: 'bad_message' });
    expect(answers.map((a) => (a as { message: string }).message.slice(0, 40))).toEqual([
      expect.stringContaining('body: invalid JSON'),
      expect.stringContaining('items'),
      expect.stringContaining('items'),
      expect.stringContaining('items'),
      expect.stringContaining('body: invalid JSON'),
    ]);
    for (const c of cases) expect(await batchItemsInSlices(Buffer.from(c))).toBeUndefined();
  });

  it('turns the event loop while a big batch is read, before its first item is scored (parsed whole: no turn)', async () => {
    const [pass] = await runs;
    const item = `{"task":"${ASTROID.task}","trajectory":${pass}}`;
    const copies = Math.ceil((5 * PARSE_SLICE_BYTES) / item.length);
    const body = `{"items":[${Array(copies).fill(item).join(',')}]}`;
    // Turns of the event loop so far, read when each item asks for its reference.
    const counter = turnCounter();
    const atAsk: number[] = [];
    const value = await batch(body, atAsk, counter.turns).finally(counter.stop);
    expect(value.ok).toBe(true);
    expect(atAsk).toHaveLength(copies);
    // Read in slices of PARSE_SLICE_BYTES, a turn after each: parsed whole, no turn came before the first item.
    expect(atAsk[0]).toBeGreaterThanOrEqual(3);
  });
});
