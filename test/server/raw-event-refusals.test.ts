/**
 * Review s42 #5: a raw-format `step` its format's parser could not use (the whole log sent as one event, its
 * `messages` array, a mistyped role) got no frame and no error, used up its seq, and the final had 0 steps: the
 * parser said what was wrong and the server dropped it. Such an event is now refused `bad_message` naming what is
 * wrong (session and seq), its seq is not used, and nothing accepted before is lost.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { getParser } from '../../src/formats/index.js';
import type { FormatName } from '../../src/formats/types.js';
import { ASTROID, CORPUS, Client, readDoc, useApp, type Frame } from './helpers.js';

const SWE_AGENT = `${CORPUS}/christsakm__Trajectories/TODO/dask__dask-8685/trace_02_kimi-k2-instruct-0905/dask__dask-8685.traj`;
const OPENHANDS = `${CORPUS}/OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl`;
/** An OpenHands LLM-completion log: its events are chat messages. */
const COMPLETIONS = `${CORPUS}/gsmoon97__swe-agent-eval/evaluation/python/verified/20250329_OpenHands_Claude-3.5-Sonnet(Oct)/trajs/astropy__astropy-12907/Claude-3.5-Sonnet(Oct)-1743405761.3279748.json`;

const app = useApp();

/**
 * Streams `events` of a real run in session `id`, sending each of `bad` (with its expected refusal) before event
 * `at`; every refusal names session and seq, and the final equals the whole run's POST /v1/score.
 */
async function streamWithRefusals(id: string, format: FormatName, task: string, doc: unknown, bad: Array<[unknown, RegExp]>, at: number): Promise<void> {
  const events = getParser(format).events(doc);
  const c = await Client.connect(app().wsUrl);
  c.send({ type: 'start', session: id, task, format });
  await c.nextOf('started', id);
  let seq = 0;
  for (const [i, event] of events.entries()) {
    if (i === at) {
      for (const [payload, why] of bad) {
        c.send({ type: 'step', session: id, seq, step: payload });
        const refused = await c.nextOf('error', id);
        expect(refused).toMatchObject({ code: 'bad_message', session: id, seq, message: expect.stringMatching(why) as unknown });
      }
    }
    c.send({ type: 'step', session: id, seq: seq++, step: event });
  }
  c.send({ type: 'end', session: id });
  const final = await c.nextOf('final', id);
  const res = await fetch(`${app().url}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task, format, trajectory: doc }) });
  const batch = (await res.json()) as { steps: number; score: unknown };
  expect(batch.steps).toBeGreaterThan(0);
  expect([final.steps, final.score]).toEqual([batch.steps, batch.score]);
  expect(c.frames.filter((f: Frame) => f.type === 'error')).toEqual([]);
  c.close();
}

describe('raw events the format cannot use', () => {
  it('mini-swe-agent: the whole log, its messages array and a mistyped role are refused by name; the run goes on', async () => {
    const doc = (await readDoc(ASTROID.fail)) as { messages: Array<Record<string, unknown>> };
    const assistant = doc.messages.find((m) => m.role === 'assistant')!;
    await streamWithRefusals(
      'mini',
      'mini-swe-agent',
      ASTROID.task,
      doc,
      [
        [doc, /not a usable mini-swe-agent event \(unknown message role undefined\): a step message carries one entry of the \.traj\.json's `messages`/],
        [doc.messages, /expected a message object, got an array/],
        [{ ...assistant, role: 'asistant' }, /unknown message role "asistant"/],
      ],
      5,
    );
  });

  it('swe-agent: the whole .traj is refused; openhands: an object that is no event, also as the first event of either kind of log', async () => {
    const traj = await readDoc(SWE_AGENT);
    await streamWithRefusals('swe', 'swe-agent', 'dask__dask-8685', traj, [[traj, /trajectory entry has no `action` string/]], 3);
    const line = JSON.parse((await readFile(OPENHANDS, 'utf8')).split('\n')[0]!) as { instance_id: string };
    const openhands = [line];
    await streamWithRefusals('oh', 'openhands', line.instance_id, openhands, [[{}, /expected an OpenHands action or observation event/]], 0);
    // A refused first event does not decide which kind of OpenHands log the session streams.
    await streamWithRefusals('oh-chat', 'openhands', 'astropy__astropy-12907', await readDoc(COMPLETIONS), [[{ role: 7 }, /expected an OpenHands action or observation event/]], 0);
  });
});
