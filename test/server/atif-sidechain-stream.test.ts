/**
 * A Claude Code run in Harbor's ATIF export with a subagent's (sidechain) steps, streamed raw event by event over
 * the WebSocket, gets the same report as `POST /v1/score` of the whole log. The parser said "subagent steps left
 * out" on the first sidechain event itself, a diagnostic with no step: the session took that for an event it could
 * not use and refused it `bad_message`, its seq unused, so every later event of the run was out of order (the
 * replay of such a run failed at its first event; the log scored whole was fine). The note is now given at the end.
 */
import { describe, expect, it } from 'vitest';
import { getParser } from '../../src/formats/index.js';
import { fixtureLog } from '../formats/fixture-log.js';
import { Client, useApp } from './helpers.js';

const srv = useApp();
const TASK = '3d-scan-calc';

type AtifStep = Record<string, unknown> & { extra?: Record<string, unknown> };
const doc = JSON.parse(fixtureLog('atif-claude-code-3d-scan-calc.json.gz').text) as { steps: AtifStep[] };
// The subagent's prompt and turns (real steps of the excerpt flagged as Harbor flags them), written before the main agent's.
const side = (s: AtifStep, n: number): AtifStep => ({ ...s, step_id: n, extra: { ...s.extra, is_sidechain: true } });
const [task, ...main] = doc.steps;
const withSubagent = { ...doc, steps: [side(task!, 1), ...main.slice(0, 4).map((s, i) => side(s, i + 2)), task!, ...main] };

describe('an ATIF run with subagent steps, streamed raw', () => {
  it('is scored as the whole log is: no event refused, the same final as POST /v1/score', async () => {
    const res = await fetch(`${srv().url}/v1/score`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task: TASK, trajectory: withSubagent }) });
    expect(res.status).toBe(200);
    const { skipped, ...whole } = (await res.json()) as Record<string, unknown>;
    expect(skipped).toEqual([{ at: 'event 0', message: expect.stringMatching(/^subagent \(sidechain\) steps/) as unknown }]);

    const c = await Client.connect(srv().wsUrl);
    try {
      c.send({ type: 'start', session: 'side', task: TASK, format: 'atif' });
      await c.nextOf('started', 'side');
      getParser('atif')
        .events(withSubagent)
        .forEach((step, seq) => c.send({ type: 'step', session: 'side', seq, step }));
      c.send({ type: 'end', session: 'side' });
      const { type, session, reason, passed, ...final } = await c.nextOf('final', 'side');
      expect([type, session, reason]).toEqual(['final', 'side', 'end']);
      expect(c.frames.filter((f) => f.type === 'error')).toEqual([]);
      expect(final).toEqual(whole);
    } finally {
      c.close();
    }
  });
});
