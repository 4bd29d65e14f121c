/** `steplens replay FILE --url URL --task ID`: streams a trajectory to a running server, printing what comes back. */
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { getParser, parseTrajectoryText } from '../../formats/index.js';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { formatOption, readText } from '../input.js';

const USAGE = `usage: steplens replay FILE --url URL --task ID [--format F] [--token T] [--session ID] [--passed | --failed] [--json]
  Streams FILE to the server at URL (http://, ws://; /v1/stream is added when the path is empty) one step
  at a time, as a live agent would, and prints each score and signal as it arrives, then the final.`;

/** The stream URL for a server address. */
export function streamUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SteplensError('usage', `--url: not a URL: '${url}'`);
  }
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new SteplensError('usage', `--url: expected http(s):// or ws(s):// (got ${u.protocol})`);
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/v1/stream';
  return u.toString();
}

/** The document's raw events: what a live client of that format would send as `step` payloads. */
function loadEvents(text: string, file: string, format: ReturnType<typeof formatOption>): { format: string; events: unknown[] } {
  const parsed = parseTrajectoryText(text, format, file);
  if (!parsed.ok) throw parsed.error;
  const f = parsed.value.format;
  if (f === 'steplens') return { format: f, events: parsed.value.steps };
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    doc = text.split('\n').filter((l) => l.trim() !== '').flatMap((l) => {
      try {
        return [JSON.parse(l) as unknown];
      } catch {
        return [];
      }
    });
  }
  return { format: f, events: getParser(f).events(doc) };
}

const fixed = (n: unknown, d = 2): string => (typeof n === 'number' ? n.toFixed(d) : String(n));

const replay: Command = {
  name: 'replay',
  summary: 'stream a trajectory to a running server and print live scores and signals',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        url: { type: 'string' }, task: { type: 'string' }, format: { type: 'string' }, token: { type: 'string' },
        session: { type: 'string' }, passed: { type: 'boolean' }, failed: { type: 'boolean' }, json: { type: 'boolean' },
      },
    });
    const file = positionals[0];
    if (file === undefined || positionals.length > 1) throw new SteplensError('usage', 'expected exactly one FILE');
    if (!values.url) throw new SteplensError('usage', '--url is required');
    if (!values.task) throw new SteplensError('usage', '--task is required');
    if (values.passed && values.failed) throw new SteplensError('usage', '--passed and --failed exclude each other');
    const url = streamUrl(values.url);
    const { format, events } = loadEvents(await readText(file), file, formatOption(values.format));
    const token = values.token ?? io.env.STEPLENS_TOKEN;
    const session = values.session ?? `replay-${process.pid}-${Date.now().toString(36)}`;
    const ws = new WebSocket(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    const print = (frame: Record<string, unknown>): void => {
      if (values.json) return io.stdout(`${JSON.stringify(frame)}\n`);
      const score = frame.score as Record<string, unknown> | undefined;
      switch (frame.type) {
        case 'started':
          return io.stdout(`session ${String(frame.session)} on ${String(frame.task)} (${format}, reference ${JSON.stringify(frame.reference)})\n`);
        case 'score':
          return io.stdout(`seq ${String(frame.seq).padStart(4)}  t ${String(frame.t).padStart(4)}  ${String(frame.stage)}  score ${fixed(score?.total).padStart(6)}  reward ${fixed(frame.reward).padStart(7)}  ${String(frame.tier)}\n`);
        case 'signal':
          return io.stdout(`  ! ${String(frame.severity)} ${String(frame.kind)} at t ${String(frame.t)} (steps ${(frame.steps as number[]).join(',')}): ${String(frame.message)}\n`);
        case 'final':
          return io.stdout(`final: score ${fixed(score?.total)} (struct ${fixed(score?.struct)}, cov ${fixed(score?.cov)}, coh ${fixed(score?.coh, 3)}, temp ${fixed(score?.temp, 3)}), tier ${String(frame.tier)}${frame.lucky ? ` ${String(frame.lucky)}` : ''}, ${String(frame.steps)} steps, stages ${String(frame.stages)}\n`);
        case 'error':
          return io.stderr(`server error ${String(frame.code)}${frame.seq !== undefined ? ` at seq ${String(frame.seq)}` : ''}: ${String(frame.message)}\n`);
      }
    };
    await new Promise<void>((resolve, reject) => {
      let done = false;
      ws.on('unexpected-response', (_req, res) => {
        done = true;
        reject(new SteplensError(res.statusCode === 401 ? 'unauthorized' : 'bad_input', `${url}: the server refused the connection (HTTP ${res.statusCode ?? '?'})`));
        res.resume();
        ws.terminate();
      });
      ws.on('error', (error) => {
        if (!done) reject(new SteplensError('bad_input', `cannot reach ${url}: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
        done = true;
      });
      ws.on('open', () => {
        ws.send(JSON.stringify({ type: 'start', session, task: values.task, format }));
        events.forEach((step, seq) => ws.send(JSON.stringify({ type: 'step', session, seq, step })));
        if (values.passed || values.failed) ws.send(JSON.stringify({ type: 'outcome', session, passed: Boolean(values.passed) }));
        ws.send(JSON.stringify({ type: 'end', session }));
      });
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as Record<string, unknown>;
        print(frame);
        if (frame.type === 'final') {
          done = true;
          ws.close();
          resolve();
        } else if (frame.type === 'error' && frame.seq === undefined && (frame.code === 'bad_message' || frame.code === 'duplicate_session' || frame.code === 'overloaded') && frame.session === session) {
          done = true;
          ws.close();
          reject(new SteplensError('bad_input', `the server refused the session: ${String(frame.message)}`));
        }
      });
      ws.on('close', (code, reason) => {
        if (!done) reject(new SteplensError('bad_input', `connection closed before the final (${code} ${reason.toString()})`));
        done = true;
      });
    });
    return 0;
  },
};

export default replay;
