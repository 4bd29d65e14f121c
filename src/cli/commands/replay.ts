/** `steplens replay FILE --url URL --task ID`: streams a trajectory to a running server, printing what comes back. */
import { DEFAULT_CONFIG } from '../../core/config.js';
import { parseArgs } from 'node:util';
import { connect, SteplensClientError, type ClientSession, streamUrl as clientStreamUrl, type FinalFrame, type ScoreFrame, type SignalFrame, type StartedFrame } from '../../client/index.js';
import { getParser } from '../../formats/index.js';
import { ERROR_CODES, SteplensError, type ErrorCode } from '../../errors.js';
import type { Command } from '../command.js';
import { formatOption, LENIENT_OPTION } from '../input.js';
import { INSTANCE_OPTION, logExitCode, noStepsMessage, readLogFile, reportLogDiagnostics, selectInstances, type Instance } from '../instances.js';

const USAGE = `usage: steplens replay FILE --url URL [--task ID] [--instance ID] [--format F] [--token T] [--session ID] [--passed | --failed] [--json] [--reconnect] [--lenient]
  Streams FILE to the server at --url URL (http://, ws://; /v1/stream is added when the path is empty) one step
  at a time, as a live agent would, and prints each score and signal as it arrives, then the final.
  --token T: the server's bearer token; --session ID: the session's id (default replay-PID-TIME).
  --task defaults to the task the log names; a file holding several trajectories (OpenHands output.jsonl)
  needs --instance ID. --passed / --failed send the outcome before the steps, so live tiers are the
  outcome's (a failing run is Partial-fail or Off-track from its first step).
  --json prints every frame as it arrives, one JSON object a line (JSON Lines: started, score, signal, final).
  When the server refuses a step (or the session), nothing more is sent: the session is ended, the refusal is
  one line on stderr (with --json also an \`error\` frame, the last line, in place of the final) and the exit code is 1.
  A final the server sent on its own (its \`reason\` not \`end\`: it shut down, the session went idle) is printed,
  then one line on stderr, and the exit code is 1.
  With --reconnect, a dropped connection is reopened and the session resumed.
  Bad lines or events of FILE are reported on stderr and skipped (the rest is streamed); exit 1 unless --lenient.`;

/** The stream URL for a server address (a `usage` error naming --url when it is not one). */
export function streamUrl(url: string): string {
  try {
    return clientStreamUrl(url);
  } catch (error) {
    throw new SteplensError('usage', `--url: ${(error as Error).message}`);
  }
}

/** The instance's raw events: what a live client of that format would send as `step` payloads. */
function eventsOf(x: Instance): unknown[] {
  return x.parsed.format === 'steplens' ? x.parsed.steps : getParser(x.parsed.format).events(x.document);
}

const fixed = (n: unknown, d = 2): string => (typeof n === 'number' ? n.toFixed(d) : String(n));

/** `PTA v2 (3 paths)` or `prior (no PTA)`. */
function referenceText(r: StartedFrame['reference']): string {
  return r.kind === 'pta' ? `PTA v${r.version} (${r.paths} ${r.paths === 1 ? 'path' : 'paths'})` : 'prior (no PTA for this task)';
}

/** The shipped reference-free composite's weighted signals, heaviest first (`brevity 0.5, edit 0.4, temp 0.1`). */
const DEFAULT_PRIOR_TERMS = Object.entries(DEFAULT_CONFIG.priorWeights)
  .filter(([, w]) => w > 0)
  .sort((a, b) => b[1] - a[1])
  .map(([name, w]) => `${name} ${w}`)
  .join(', ');

/** One line per frame, as the human-readable output shows it. */
function describe(frame: StartedFrame | ScoreFrame | SignalFrame | FinalFrame, format: string): string {
  switch (frame.type) {
    case 'started':
      return `session ${frame.session} on ${frame.task} (${format}, reference ${referenceText(frame.reference)})\n`;
    case 'score':
      return `seq ${String(frame.seq).padStart(4)}  t ${String(frame.t).padStart(4)}  ${frame.stage}  score ${fixed(frame.score.total).padStart(6)}  reward ${fixed(frame.reward).padStart(7)}  ${frame.tier}\n`;
    case 'signal':
      return `  ! ${frame.severity} ${frame.kind} at t ${frame.t} (steps ${frame.steps.join(',')}): ${frame.message}\n`;
    case 'final': {
      const s = frame.score;
      const parts =
        s.struct === null || s.cov === null
          ? // The server's weights are not in the frame: the total is its reference-free composite, not coh and temp alone.
            `no PTA: the server's reference-free composite (by default ${DEFAULT_PRIOR_TERMS}; docs/forecast.md); coh ${fixed(s.coh, 3)}, temp ${fixed(s.temp, 3)}`
          : `struct ${fixed(s.struct)}, cov ${fixed(s.cov)}, coh ${fixed(s.coh, 3)}, temp ${fixed(s.temp, 3)}`;
      const outcome = frame.passed === undefined ? ' (projected: outcome unknown)' : '';
      const by = frame.reason !== undefined && frame.reason !== 'end' ? `, ended by the server (${frame.reason})` : '';
      return `final: score ${fixed(s.total)} (${parts}), tier ${frame.tier}${frame.lucky ? ` ${frame.lucky}` : ''}${outcome}, ${frame.steps} steps, stages ${frame.stages}${by}\n`;
    }
  }
}

/** A refusal the replay ends on; `disconnected` / `closed` are the connection's, said by `end()` ("no final"). */
const isRefusal = (e: unknown): e is SteplensClientError => e instanceof SteplensClientError && e.code !== 'disconnected' && e.code !== 'closed';

/**
 * Sends the events one at a time, each answered before the next goes, and stops at the first refusal: a step after a
 * refused seq would only be refused out of order (one error each), and the final would score a run with a hole in it.
 * Pipelining them was 2.3 times faster on one machine (2,160 steps: 0.83 s against 1.94 s), but sent them all.
 */
async function sendSteps(session: ClientSession, events: readonly unknown[], refusal: () => SteplensClientError | undefined, refuse: (e: SteplensClientError) => void): Promise<void> {
  for (const event of events) {
    if (refusal() !== undefined) return;
    await session.step(event).catch((error: unknown) => {
      if (isRefusal(error)) refuse(error);
    });
  }
}

/**
 * The catalogue code of a client failure: the server's own code when it refused with one (`overloaded`,
 * `quota_exceeded`, `too_large`, ...), `usage` for a bad --url, else `bad_input` (an event of FILE the server could
 * not read, `bad_message`, or a connection that failed).
 */
function codeOf(error: SteplensClientError): ErrorCode {
  if (error.code === 'bad_url') return 'usage';
  return error.code !== 'bad_message' && Object.hasOwn(ERROR_CODES, error.code) ? (error.code as ErrorCode) : 'bad_input';
}

/** A client failure as the CLI's one-line error. */
function cliError(error: unknown, prefix = ''): unknown {
  if (!(error instanceof SteplensClientError)) return error;
  return new SteplensError(codeOf(error), `${prefix}${error.message}`);
}

/**
 * The replay's one-line error for a server refusal, naming the step by its seq (the event's 0-based position in FILE);
 * with `--json`, the `error` frame is written first, as the last line of stdout.
 */
function refusalError(e: SteplensClientError, events: number, file: string, json: ((s: string) => void) | undefined): SteplensError {
  json?.(`${JSON.stringify({ type: 'error', code: e.code, message: e.message, ...(e.session !== undefined ? { session: e.session } : {}), ...(e.seq !== undefined ? { seq: e.seq } : {}) })}\n`);
  const where = e.seq !== undefined ? `seq ${e.seq} (event ${e.seq + 1} of ${events} in ${file})` : `the session of ${file}`;
  return new SteplensError(codeOf(e), `the server refused ${where}: ${e.code}: ${e.message}; nothing after it was sent`);
}

const replay: Command = {
  name: 'replay',
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        task: { type: 'string' },
        format: { type: 'string' },
        token: { type: 'string' },
        session: { type: 'string' },
        passed: { type: 'boolean' },
        failed: { type: 'boolean' },
        json: { type: 'boolean' },
        reconnect: { type: 'boolean' },
        ...INSTANCE_OPTION,
        ...LENIENT_OPTION,
      },
    });
    const file = positionals[0];
    if (file === undefined || positionals.length > 1) throw new SteplensError('usage', 'expected exactly one FILE');
    if (!values.url) throw new SteplensError('usage', '--url is required');
    if (values.passed && values.failed) throw new SteplensError('usage', '--passed and --failed exclude each other');
    const url = streamUrl(values.url);
    const log = await readLogFile(file, formatOption(values.format));
    const chosen = selectInstances(log, values.instance, true);
    const instance = chosen[0]!;
    // As `score`: a run with no step has no score, not a 0 and a tier (the stream, and POST /v1/score, would give it one).
    if (instance.parsed.steps.length === 0) throw new SteplensError('bad_input', noStepsMessage(log, instance));
    if (values.task?.trim() === '') throw new SteplensError('usage', '--task must not be empty');
    const task = values.task ?? instance.parsed.meta.task;
    if (!task) throw new SteplensError('usage', `--task is required: ${file} names no task`);
    reportLogDiagnostics(log, chosen, io.stderr);
    const format = instance.parsed.format;
    const events = eventsOf(instance);
    const token = values.token ?? io.env.STEPLENS_TOKEN;
    const print = (frame: StartedFrame | ScoreFrame | SignalFrame | FinalFrame): void => io.stdout(values.json ? `${JSON.stringify(frame)}\n` : describe(frame, format));
    // The first refusal ends the replay: the later ones (steps in flight refused out of order) would only repeat it.
    const state: { refusal?: SteplensClientError } = {};
    const refuse = (e: SteplensClientError): void => void (state.refusal ??= e);

    const client = await connect(url, { ...(token ? { token } : {}), reconnect: Boolean(values.reconnect) }).catch((e: unknown) => {
      throw cliError(e);
    });
    try {
      const session = await client
        .start({
          task,
          format,
          session: values.session ?? `replay-${process.pid}-${Date.now().toString(36)}`,
        })
        .catch((e: unknown) => {
          throw cliError(e, 'the server refused the session: ');
        });
      print(session.started);
      session.onScore(print);
      session.onSignal(print);
      session.onError(refuse);
      // The outcome goes first: the server's live tiers follow a known outcome from the next step on.
      if (values.passed || values.failed) session.outcome(Boolean(values.passed));
      await sendSteps(session, events, () => state.refusal, refuse);
      // A refused run is ended all the same (the server keeps no half session); its final covers only the steps before the refusal: not printed.
      const final = await session.end().catch((e: unknown): undefined => {
        if (state.refusal === undefined) throw cliError(e, 'no final: ');
        return undefined;
      });
      if (state.refusal !== undefined) throw refusalError(state.refusal, events.length, file, values.json ? io.stdout : undefined);
      if (final !== undefined) print(final);
      // A final the server made itself (it shut down, the session went idle) scores only the steps it had then: the
      // replay did not finish, whatever the final says. Nothing is wrong with FILE: the server stopped serving the
      // session, as it answers 503 `overloaded` while shutting down, so the replay is one to run again.
      if (final?.reason !== undefined && final.reason !== 'end') {
        const whole = instance.parsed.steps.length;
        throw new SteplensError(
          'overloaded',
          `the server ended session ${final.session} itself (${final.reason}) with ${final.steps} of the ${whole} steps of ${file} scored: not a final of the whole run; replay it again once the server takes sessions`,
        );
      }
    } finally {
      await client.close();
    }
    return logExitCode(log, chosen, values.lenient);
  },
};

export default replay;
