/**
 * How long a session's start, its steps and its end hold the server's event loop: loaded into the server with
 * `--import` (ws-load's `--server-args`), it times the server's own calls, wall clock and CPU (`process.cpuUsage`,
 * every thread: a parallel scavenge's helpers count too), and writes their quantiles when the process exits. On a
 * loaded machine the wall times include the process waiting for a core; the CPU times do not.
 *
 *   TURNS_OUT=/tmp/turns.txt node dist/bench/ws-load.js --shapes '' --rate 2500 --server-args=--import=$PWD/dist/bench/turn-times.js
 *
 * Rows: `step` (`Session.step`, one step scored), `start` (`SessionRegistry.start` up to its first await; `start
 * settled`: until it resolved, waits included), `end report` (`EndReports.build` up to its first await: the
 * report's first slice, the whole report below STATES_PER_STEP states), `end finish` / `end release` / `end kept
 * bytes` (the session's own pieces), `end settled` (`SessionRegistry.end` until it resolved). A row's turn is the
 * longest piece that ran without letting other clients' frames in.
 */
import { writeFileSync } from 'node:fs';
import { EndReports } from '../src/server/end-reports.js';
import { SessionRegistry } from '../src/server/session-registry.js';
import { Session } from '../src/server/session.js';
import { quantiles } from './timing.js';

type Method = (...args: unknown[]) => unknown;
const wall = new Map<string, number[]>();
const cpu = new Map<string, number[]>();
const put = (to: Map<string, number[]>, row: string, ms: number): void => void (to.get(row) ?? to.set(row, []).get(row)!).push(ms);
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

/** Times `proto[name]` as `row`: its synchronous part, and (`settled`) until the promise it returns settles. */
function time(proto: object, name: string, row: string, settled?: string): void {
  const methods = proto as Record<string, Method>;
  const original = methods[name]!;
  methods[name] = function (this: unknown, ...args: unknown[]): unknown {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const out = original.apply(this, args);
    put(wall, row, performance.now() - t0);
    put(cpu, row, cpuMs(c0));
    if (settled !== undefined && out instanceof Promise) {
      out.then(
        () => put(wall, settled, performance.now() - t0),
        () => undefined,
      );
    }
    return out;
  };
}

time(Session.prototype, 'step', 'step');
time(SessionRegistry.prototype, 'start', 'start', 'start settled');
time(SessionRegistry.prototype, 'end', 'end call', 'end settled');
time(EndReports.prototype, 'build', 'end report');
time(Session.prototype, 'finish', 'end finish');
time(Session.prototype, 'release', 'end release');
time(Session.prototype, 'keptBytes', 'end kept bytes');

const fmt = (x: number | undefined): string => (x === undefined ? '-' : x.toFixed(3)).padStart(8);

process.on('exit', () => {
  if (wall.size === 0) return; // not the steplens target
  const head = `${'ms'.padEnd(16)} ${'n'.padStart(7)}  ${['mean', 'p50', 'p99', 'p99.9', 'max'].map((h) => h.padStart(8)).join(' ')}   (wall | CPU)`;
  const lines = [head];
  for (const [row, xs] of wall) {
    const line = (ys: number[] | undefined): string => {
      if (ys === undefined) return '';
      const sorted = Float64Array.from(ys).sort();
      const [p50, p99, p999] = quantiles(sorted, [0.5, 0.99, 0.999]);
      return [sorted.reduce((a, b) => a + b, 0) / sorted.length, p50, p99, p999, sorted.at(-1)].map(fmt).join(' ');
    };
    lines.push(`${row.padEnd(16)} ${String(xs.length).padStart(7)}  ${line(xs)} | ${line(cpu.get(row))}`);
  }
  writeFileSync(process.env.TURNS_OUT ?? 'turns.txt', `${lines.join('\n')}\n`);
});
