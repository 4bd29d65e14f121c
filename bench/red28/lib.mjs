// Helpers of the round-28 probes: HTTP with a token, one WebSocket stream, steps, a scrape's series.
import { Buffer } from 'node:buffer';
import { clearTimeout, setTimeout } from 'node:timers';
import WebSocket from 'ws';
const { fetch } = globalThis;
export const steps = (n, salt = '') =>
  Array.from({ length: n }, (_, i) => ({
    t: i,
    tool: 'bash',
    action: { kind: 'shell', command: i % 3 === 0 ? `cat src/f${i % 7}.py` : i % 3 === 1 ? `sed -i s/a${salt}/b/ src/f${i % 7}.py` : 'python -m pytest -q' },
    observation: i % 3 === 2 ? (i % 2 ? '1 failed, 3 passed' : '4 passed') : `line ${i}`,
  }));
export function client(base, token) {
  const h = { authorization: `Bearer ${token}` };
  return async (method, path, body) => {
    const t = process.hrtime.bigint();
    const res = await fetch(base + path, { method, headers: body === undefined ? h : { ...h, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = res.headers.get('content-type')?.includes('event-stream') ? '(event stream)' : await res.text();
    if (text === '(event stream)') await res.body?.cancel();
    return { status: res.status, text, ms: Number(process.hrtime.bigint() - t) / 1e6 };
  };
}
/** A stream: send(obj), next(pred) resolves with the first frame (from now on or already queued) matching pred. */
export async function stream(wsUrl, token) {
  const ws = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${token}` } });
  await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
  const frames = [];
  const waiters = [];
  ws.on('message', (d) => {
    const f = JSON.parse(d.toString());
    const w = waiters.findIndex((x) => x.pred(f));
    if (w >= 0) waiters.splice(w, 1)[0].resolve(f);
    else frames.push(f);
  });
  return {
    ws,
    send: (o) => ws.send(JSON.stringify(o)),
    next: (pred, ms = 20_000) =>
      new Promise((resolve, reject) => {
        const i = frames.findIndex(pred);
        if (i >= 0) return resolve(frames.splice(i, 1)[0]);
        const timer = setTimeout(() => reject(new Error('no frame in time')), ms);
        waiters.push({ pred, resolve: (f) => (clearTimeout(timer), resolve(f)) });
      }),
    close: () => ws.close(),
  };
}
/** Runs one session start to final on `s`; returns the final. */
export async function session(s, start, n, passed, salt = '') {
  s.send({ type: 'start', ...start });
  const started = await s.next((f) => (f.type === 'started' || f.type === 'error') && (f.session === start.session || start.session === undefined));
  if (started.type === 'error') return started;
  const id = started.session;
  for (const [i, step] of steps(n, salt).entries()) s.send({ type: 'step', session: id, seq: i, step });
  if (passed !== undefined) s.send({ type: 'outcome', session: id, passed });
  s.send({ type: 'end', session: id });
  return s.next((f) => (f.type === 'final' || f.type === 'error') && f.session === id);
}
/** Series (sample lines) and bytes of a Prometheus text. */
export function series(text) {
  const lines = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  const byName = {};
  for (const l of lines) {
    const name = l.split(/[{ ]/, 1)[0];
    byName[name] = (byName[name] ?? 0) + 1;
  }
  return { series: lines.length, bytes: Buffer.byteLength(text), byName };
}
