/**
 * T99: a `POST /v1/score` whose `trajectory` is an array of records (60.5 MB: 5,000 steps of 12 KB) was decoded and
 * parsed whole in the scoring worker, 1-2 s in one go at load 9, and every other tenant's job there waited behind it.
 * Its records (a rank's runs) are now read a slice at a time (body-in-slices.ts), with the same answers and errors: a
 * body the slices do not take for certain is parsed whole as before. Turns are counted, not timed.
 */
import { readFile } from 'node:fs/promises';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/formats/index.js';
import { PARSE_SLICE_BYTES, trajectoryBodyInSlices } from '../../src/server/body-in-slices.js';
import { bodyBytesInSlices, bodyBytesOf } from '../../src/server/ported-body.js';
import { scoreRequestSchema } from '../../src/protocol/http-bodies.js';
import type { JobKind } from '../../src/server/scoring-jobs.js';
import { trajectoryDocument, trajectoryDocumentInSlices } from '../../src/server/trajectory.js';
import { loopTurnsDuring, turnCounter } from '../loop-turns.js';
import { ASTROID } from './helpers.js';
import { inlineJob } from './inline-job.js';

/** A real run (mini-swe-agent) as an array of steplens records. */
const records = (async () => {
  const parsed = parseDocument(JSON.parse(await readFile(ASTROID.passA, 'utf8')) as unknown, 'auto');
  if (!parsed.ok) throw parsed.error;
  return JSON.stringify(parsed.value.steps);
})();

/** The same body with `key` written escaped: the scan does not take it, so that one is parsed whole. */
const escaped = (body: string, key: string): string => body.replace(`"${key}"`, `"\\u00${key.charCodeAt(0).toString(16)}${key.slice(1)}"`);

/** Turns of the event loop before a `kind` job over `body` first asked for a reference, and its answer. */
async function turnsBeforeScoring(kind: JobKind, body: string): Promise<{ turns: number; ok: boolean }> {
  const counter = turnCounter();
  const atAsk: number[] = [];
  const result = await inlineJob(kind, body, atAsk, counter.turns).finally(counter.stop);
  return { turns: atAsk[0] ?? -1, ok: result.ok };
}

describe('a trajectory read a slice of records at a time', () => {
  it('answers as the body parsed whole: score, steps view, reference states, rank', async () => {
    const steps = await records;
    const one = `{"note":{"a":[1]},"task":"${ASTROID.task}","format":"steplens","trajectory":${steps},"passed":true}`;
    const rank = `{"task":"${ASTROID.task}","runs":[{"id":"a","trajectory":${steps}},{"id":"b","format":"auto","trajectory":${steps.replace(/"observation":"[^"]{0,40}/, '"observation":"')}}]}`;
    const cases: Array<[JobKind, string, string]> = [
      ['score', one, 'trajectory'],
      ['steps', one, 'trajectory'],
      ['states', `{"trajectory":${steps},"format":"auto"}`, 'trajectory'],
      ['rank', rank, 'runs'],
    ];
    for (const [kind, body, key] of cases) {
      const sliced = await inlineJob(kind, body);
      expect(sliced.ok, kind).toBe(true);
      expect(sliced, kind).toEqual(await inlineJob(kind, escaped(body, key)));
    }
  });

  it('refuses what it always refused, with the same error', async () => {
    const cases = [
      '{"task":"t","trajectory":[{"t":0},]}',
      '{"task":"t","trajectory":[1 2]}',
      '{"task":7,"trajectory":[{"t":0,"action":{"kind":"shell","command":"ls"}}]}',
      '{"task":"t","trajectory":[],"x":[1,,2]}',
      '{"task":"t","trajectory":[]}',
      '{"trajectory":[{"t":0,"action":{"kind":"shell","command":"ls"}}]}',
    ];
    for (const c of cases) {
      const sliced = await inlineJob('score', c);
      expect(sliced.ok, c).toBe(false);
      // Invalid JSON: JSON.parse's own message, at its position in this body (the escaped key would move it).
      const syntax = ((): string | undefined => {
        try {
          JSON.parse(c);
          return undefined;
        } catch (error) {
          return `body: invalid JSON: ${(error as Error).message}`;
        }
      })();
      expect(sliced, c).toEqual(syntax !== undefined ? { ok: false, code: 'bad_message', message: syntax } : await inlineJob('score', escaped(c, 'trajectory')));
    }
    // Other members are kept as JSON.parse keeps them: a key it reads otherwise (non-ASCII) is left to the whole parse.
    const step = '{"t":0,"action":{"kind":"shell","command":"ls"}}';
    expect(await trajectoryBodyInSlices(Buffer.from(`{"tâsk":"x","task":"t","trajectory":[${step}]}`), scoreRequestSchema)).toBeUndefined();
    expect(await trajectoryBodyInSlices(Buffer.from(`{"task":"a","task":"t","passed":false,"trajectory":[${step}]}`), scoreRequestSchema)).toMatchObject({ task: 't', passed: false });
  });

  it('turns the event loop while a big trajectory is read, before it is scored (parsed whole: no turn)', async () => {
    const observation = 'y'.repeat(12_000);
    const step = (i: number): string => JSON.stringify({ t: i, tool: 'bash', action: { kind: 'shell', command: `cat f${i}.py` }, observation });
    const count = Math.ceil((5 * PARSE_SLICE_BYTES) / step(0).length);
    const trajectory = `[${Array.from({ length: count }, (_, i) => step(i)).join(',')}]`;
    // (A reference upload's states ask for the prior, not a reference: the same reading, not counted here.)
    for (const kind of ['score', 'steps'] as const) {
      const seen = await turnsBeforeScoring(kind, `{"task":"${ASTROID.task}","format":"steplens","trajectory":${trajectory}}`);
      expect(seen.ok, kind).toBe(true);
      expect(seen.turns, kind).toBeGreaterThanOrEqual(3);
    }
    // A rank's runs likewise (8 runs of ~0.7 MiB).
    const run = `{"trajectory":[${Array.from({ length: 60 }, (_, i) => step(i)).join(',')}]}`;
    const rank = await turnsBeforeScoring('rank', `{"task":"${ASTROID.task}","runs":[${Array(8).fill(run).join(',')}]}`);
    expect(rank).toEqual({ turns: expect.any(Number), ok: true });
    expect(rank.turns).toBeGreaterThanOrEqual(3);
  });

  it('parses steplens records a slice at a time, to what the parser gives in one go', async () => {
    const steps = JSON.parse(await records) as unknown[];
    // 20,000 records (each checked by the step schema: far over JOB_SLICE_MS in all), one of them refused, t repeated.
    const doc = Array.from({ length: 20_000 }, (_, i) => (i === 7 ? { t: 1 } : { ...(steps[i % steps.length] as object), t: i % 9_000 }));
    const { turns, value } = await loopTurnsDuring(() => trajectoryDocumentInSlices(doc, 'auto'));
    expect(value).toEqual(trajectoryDocument(doc, 'auto'));
    expect(value.diagnostics.length).toBeGreaterThan(1);
    expect(turns).toBeGreaterThanOrEqual(1);
    // Not steplens, nested too deep, a document: as before.
    for (const other of [{ messages: [] }, [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]], 'x']) {
      let whole: unknown;
      try {
        whole = trajectoryDocument(other, 'auto');
      } catch (error) {
        whole = error;
      }
      await expect(trajectoryDocumentInSlices(other, 'auto').catch((error: unknown) => error)).resolves.toEqual(whole);
    }
  });

  it('joins a ported body in slices to the same bytes', async () => {
    const chunks = Array.from({ length: 64 }, (_, k) => Buffer.alloc(64 * 1024, k));
    const ported = () => {
      const { port1, port2 } = new MessageChannel();
      for (const c of chunks) port1.postMessage(new Uint8Array(c));
      port1.close();
      return { port: port2, length: 64 * 64 * 1024 };
    };
    const joined = await bodyBytesInSlices(ported());
    expect(Buffer.compare(Buffer.from(joined), Buffer.concat(chunks))).toBe(0);
    expect(Buffer.compare(Buffer.from(joined), Buffer.from(bodyBytesOf(ported())))).toBe(0);
    await expect(bodyBytesInSlices({ ...ported(), length: 64 * 64 * 1024 + 1 })).rejects.toThrow('arrived');
  });
});
