/**
 * A body's `trajectory` sent as a log's text (a JSON string of JSON Lines) read a slice of lines at a time (T100): read
 * in one go, 60 MB of steplens JSON Lines held the scoring worker for seconds, every other tenant's job there waiting.
 * The same steps, diagnostics and refusals as the text read whole.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseDocument } from '../../src/formats/index.js';
import { PARSE_SLICE_BYTES, trajectoryBodyInSlices } from '../../src/server/body-in-slices.js';
import { JOB_SLICE_MS } from '../../src/job-slices.js';
import { jsonStringInSlices } from '../../src/server/string-in-slices.js';
import { scoreRequestSchema } from '../../src/protocol/http-bodies.js';
import { trajectoryDocument, trajectoryDocumentInSlices, trajectorySteps, trajectoryStepsInSlices } from '../../src/server/trajectory.js';
import { loopTurnsDuring, turnCounter } from '../loop-turns.js';
import { ASTROID, CORPUS } from './helpers.js';
import { inlineJob } from './inline-job.js';

/** A real OpenHands `output.jsonl` of three instances. */
const OUTPUT_JSONL = join(CORPUS, 'OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl');

/** A real run (mini-swe-agent) as steplens records. */
const records = (async () => {
  const parsed = parseDocument(JSON.parse(await readFile(ASTROID.passA, 'utf8')) as unknown, 'auto');
  if (!parsed.ok) throw parsed.error;
  return parsed.value.steps as unknown[];
})();

/** What `work` gives, or the error it throws. */
async function outcome<T>(work: () => T | Promise<T>): Promise<unknown> {
  try {
    return await work();
  } catch (error) {
    return error;
  }
}

describe('a log text read a slice of lines at a time', () => {
  it('gives the steps, diagnostics and refusals of the text read whole', async () => {
    const steps = await records;
    const lines = steps.map((s) => JSON.stringify(s));
    const jsonl = lines.join('\n');
    const damaged = [lines[0], '', '{"t":', lines[1], '{"t":1}', ...lines.slice(2), 'not json', ''].join('\n');
    const texts: Array<[string, 'auto' | 'steplens' | 'swe-agent', string?]> = [
      [jsonl, 'auto'],
      [`\uFEFF${jsonl}\n`, 'steplens'],
      [damaged, 'auto'],
      [damaged.replace(/^[^\n]*\n/, 'broken first line\n'), 'auto'],
      [JSON.stringify(steps), 'auto'],
      [await readFile(ASTROID.passA, 'utf8'), 'auto'],
      [await readFile(OUTPUT_JSONL, 'utf8'), 'auto', 'ponylang__ponyc-4593'],
      [await readFile(OUTPUT_JSONL, 'utf8'), 'auto'],
      [jsonl, 'swe-agent'],
      ['', 'auto'],
      ['{"t":0', 'auto'],
      [`${lines[0]}\n{"t":`, 'auto'],
      ['{\n  "a": 1,\n  "b": [1,\n}', 'auto'],
      ['x\ny\n{"t":0}', 'auto'],
      ['{"t":0}\n{"t":1}', 'auto'],
    ];
    for (const [text, format, task] of texts) {
      const label = `${format} ${text.slice(0, 40)}`;
      const whole = await outcome(() => trajectoryDocument(text, format, 'body.trajectory', task));
      expect(await outcome(() => trajectoryDocumentInSlices(text, format, 'body.trajectory', task)), label).toEqual(whole);
      expect(await outcome(() => trajectoryStepsInSlices(text, format, 'body.trajectory', task)), label).toEqual(await outcome(() => trajectorySteps(text, format, 'body.trajectory', task)));
    }
    // The damaged text's bad lines and refused record are named by their lines, as read whole.
    const read = await trajectoryDocumentInSlices(damaged, 'auto');
    expect(read.diagnostics.map((d) => d.at)).toEqual(expect.arrayContaining(['line 3', 'line 5', `line ${lines.length + 4}`]));
  });

  it('turns the event loop while a big JSON Lines text is read, before it is scored (read whole: no turn)', async () => {
    // 3,000 real records (6 MB; each line parsed and checked by the step schema: far over JOB_SLICE_MS in all).
    const steps = await records;
    const text = Array.from({ length: 3_000 }, (_, i) => JSON.stringify({ ...(steps[i % steps.length] as object), t: i })).join('\n');
    // Slices are of work time (JOB_SLICE_MS): a clock that moves a slice a reading makes every line a slice, so the
    // count does not depend on the machine's speed (a quiet CI machine read the 6 MB in 2 slices). Read whole: 0.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += JOB_SLICE_MS));
    const { turns, value } = await loopTurnsDuring(() => trajectoryDocumentInSlices(text, 'auto')).finally(() => clock.mockRestore());
    expect(value.steps.length).toBe(3_000);
    expect(turns).toBeGreaterThanOrEqual(1_000);
    // The whole job: a `POST /v1/score` and a steps view of that text, the loop turned before a reference is asked.
    for (const kind of ['score', 'steps'] as const) {
      const counter = turnCounter();
      const atAsk: number[] = [];
      const result = await inlineJob(kind, JSON.stringify({ task: ASTROID.task, format: 'steplens', trajectory: text }), atAsk, counter.turns).finally(counter.stop);
      expect(result.ok, kind).toBe(true);
      expect(atAsk[0], kind).toBeGreaterThanOrEqual(3);
    }
  });

  it('reads a body whose trajectory is a big text a piece of the string at a time, to the body JSON.parse gives (old: parsed whole)', async () => {
    const steps = await records;
    const text = Array.from({ length: 3_000 }, (_, i) => JSON.stringify({ ...(steps[i % steps.length] as object), t: i })).join('\n');
    const body = JSON.stringify({ note: 'é', task: ASTROID.task, format: 'steplens', trajectory: text, passed: true });
    expect(body.length).toBeGreaterThan(3 * PARSE_SLICE_BYTES);
    const { turns, value } = await loopTurnsDuring(() => trajectoryBodyInSlices(Buffer.from(body), scoreRequestSchema));
    expect(value).toEqual(scoreRequestSchema.parse(JSON.parse(body)));
    expect(turns).toBeGreaterThanOrEqual(3);
    // Not a valid request, or not valid JSON: left to the whole parse, for the error it always gave.
    for (const bad of [body.replace('"task"', '"tásk"'), body.replace('"trajectory":"', '"trajectory":"\\x')]) {
      expect((await trajectoryBodyInSlices(Buffer.from(bad), scoreRequestSchema)) === undefined).toBe(true);
    }
  });

  it('parses a JSON string in pieces cut anywhere to the same string', async () => {
    const strings = [JSON.stringify(''), JSON.stringify('plain'), JSON.stringify('a\\"b\\\\c\n\u0001é😀x\\'), '"\\ud83d\\ude00\\u00e9\\\\\\/"', JSON.stringify('\\\\\\n\\')];
    for (const json of strings) {
      const bytes = Buffer.from(json);
      for (let piece = 1; piece <= 8; piece++) expect(await jsonStringInSlices(bytes, 0, bytes.length, piece), `${json} ${piece}`).toBe(JSON.parse(json));
    }
    await expect(jsonStringInSlices(Buffer.from('"ab\\qcd"'), 0, 9, 2)).rejects.toThrow(SyntaxError);
  });
});
