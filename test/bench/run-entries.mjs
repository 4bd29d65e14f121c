#!/usr/bin/env node
/**
 * Runs many bench entries' command lines in this one process, for bench-args.test.ts: a node process per command
 * line (~150 of them) spent ~110 s of CPU loading each entry's modules again (~0.7 s each), for checks that read
 * the arguments before any work. Each case gets the argv `node dist/bench/NAME.js ARGS...`, its own instance of
 * the entry (imported with `?case=N`; what it imports loads once), and its output and exit code: process.exit
 * ends the case (it throws, so nothing after it runs, as nothing would after a real exit), and a case that ends
 * without it is recorded as exit null after a grace time (every command line checked ends by process.exit or an
 * error). Writes after a case ended are dropped. Prints one JSON line, `[{ code, stdout, stderr }, ...]`.
 *
 *   node test/bench/run-entries.mjs CASES.json      (CASES: [{ "file": "/abs/dist/bench/NAME.js", "args": [...] }])
 */
/* global AbortController */
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = process.stdout.write.bind(process.stdout);
const realExit = process.exit.bind(process);

/** What process.exit throws: the case ends there. */
class Exited extends Error {}

/** The running case: its output so far, and `end` once it has exited. */
let current;

function capture(key) {
  return (chunk, encoding, callback) => {
    if (current?.code === undefined && current !== undefined) current[key] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    const cb = typeof encoding === 'function' ? encoding : callback;
    if (typeof cb === 'function') process.nextTick(cb);
    return true;
  };
}
process.stdout.write = capture('stdout');
process.stderr.write = capture('stderr');

function end(code, error) {
  if (current === undefined || current.code !== undefined) return;
  if (error !== undefined) current.stderr += `${error?.stack ?? error}\n`;
  current.code = code;
  current.ended();
}
process.exit = (code) => {
  end(code ?? process.exitCode ?? 0);
  throw new Exited();
};
// A real process dies of an uncaught error with exit 1 and its stack on stderr.
const crash = (error) => (error instanceof Exited ? undefined : end(1, error));
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

/** How long a case may run on after its module evaluated without exiting (every checked command line exits). */
const GRACE_MS = 30_000;

const results = [];
for (const [i, c] of cases.entries()) {
  current = { code: undefined, stdout: '', stderr: '' };
  const ended = new Promise((resolve) => (current.ended = resolve));
  process.argv = [process.argv[0], c.file, ...c.args];
  process.exitCode = undefined;
  const evaluated = import(`${pathToFileURL(c.file).href}?case=${i}`).then(
    () => true,
    (error) => (error instanceof Exited ? true : end(1, error)),
  );
  // Ends by process.exit or an error. One that evaluated and did not exit within GRACE_MS is recorded as exit null
  // (a process would have gone on, or ended by itself: either way not what the checks ask for).
  const grace = new AbortController();
  const settled = evaluated.then(() =>
    sleep(GRACE_MS, undefined, { signal: grace.signal }).then(
      () => end(null),
      () => undefined,
    ),
  );
  await Promise.race([ended, settled]);
  grace.abort();
  const { code, stdout, stderr } = current;
  results.push({ code, stdout, stderr });
}
current = undefined;
out(`${JSON.stringify(results)}\n`, () => realExit(0));
