/**
 * Flood drill: rounds of short sessions (start / N real steps / end), sessions viewing a range of a distinct
 * 850 KB Python file, and steps with a distinct 1 MB shell command, against a server in its own process;
 * after each round (no session open) the server's heap and RSS after a full GC. The first round warms the
 * caches up to their bounds; after it, memory must not grow (F2, F3: 5,000 cycles took RSS 87 -> 620 MB).
 */
import type { Step } from '../../src/core/types.js';
import type { AppOptions } from '../../src/server/options.js';
import { startTarget } from '../server-process.js';
import { DrillClient } from './ws-client.js';

export interface FloodOptions {
  /** Real steps a session streams (cycled from this trajectory). */
  steps: readonly Step[];
  task: string;
  /** Measured rounds after the warm-up round. */
  rounds: number;
  /** start / steps / end cycles per round. */
  sessions: number;
  stepsPerSession: number;
  connections: number;
  /** Sessions per round that view a distinct 850 KB .py file with a range. */
  bigFiles: number;
  /** Steps per round with a distinct 1 MB shell command. */
  bigCommands: number;
  /** buildApp options of the server (limits, resume window). */
  server?: Partial<AppOptions>;
}

export interface FloodRound {
  round: number;
  heapMB: number;
  rssMB: number;
  endedSessions: number;
  /** What the server estimates its ended sessions hold (steplens_ended_session_bytes), MB. */
  endedMB: number;
  seconds: number;
}

export interface FloodResult {
  rounds: FloodRound[];
  /** Growth from the end of the warm-up round to the end of the last round. */
  heapGrowth: number;
  rssGrowth: number;
}

function bigPython(n: number): string {
  const out: string[] = [`# module ${n}\n`];
  for (let c = 0, size = 0; size < 850_000; c++) {
    const block = `class Model${c}(Base):\n    def __init__(self, value):\n        self.value = value + ${c * n}\n\n    def render(self):\n        return f"<Model${c} {self.value}>"\n\n`;
    out.push(block);
    size += block.length;
  }
  return out.join('');
}

function bigCommand(steps: readonly Step[], n: number): string {
  const commands = steps.flatMap((s) => (s.action.kind === 'shell' ? [s.action.command.replace(/\n/g, ' ')] : ['ls']));
  const lines: string[] = [];
  for (let i = 0, size = 0; size < 990_000; i++) {
    const line = `${commands[i % commands.length]} # ${n}.${i}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

/** Runs one session of `frames` step payloads to its final. */
async function session(c: DrillClient, id: string, task: string, payloads: unknown[]): Promise<void> {
  c.send({ type: 'start', session: id, task });
  payloads.forEach((step, seq) => c.send({ type: 'step', session: id, seq, step }));
  c.send({ type: 'end', session: id });
  await c.next((f) => f.type === 'final' && f.session === id, 60_000);
  c.frames.length = 0;
}

async function round(url: string, r: number, o: FloodOptions): Promise<void> {
  const clients = await Promise.all(Array.from({ length: o.connections }, () => DrillClient.connect(url)));
  const payloads = Array.from({ length: o.stepsPerSession }, (_, i) => o.steps[i % o.steps.length]!);
  let next = 0;
  await Promise.all(
    clients.map(async (c, ci) => {
      for (let i = next++; i < o.sessions; i = next++) await session(c, `flood-${r}-${ci}-${i}`, o.task, payloads);
    }),
  );
  const c = clients[0]!;
  for (let i = 0; i < o.bigFiles; i++) {
    const file = `/testbed/pkg/models_${r}_${i}.py`;
    await session(c, `py-${r}-${i}`, o.task, [
      { tool: 'str_replace_editor', action: { kind: 'edit', op: 'create', path: file, text: bigPython(r * 1000 + i) } },
      { tool: 'str_replace_editor', action: { kind: 'view', path: file, range: [9000, 9010] } },
    ]);
  }
  for (let i = 0; i < o.bigCommands; i++) {
    await session(c, `sh-${r}-${i}`, o.task, [{ tool: 'bash', action: { kind: 'shell', command: bigCommand(o.steps, r * 1000 + i) }, observation: '' }]);
  }
  for (const x of clients) x.close();
}

function gauge(metrics: string, name: string): number {
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metrics)?.[1] ?? Number.NaN);
}

export async function runFlood(o: FloodOptions): Promise<FloodResult> {
  const server = await startTarget('steplens', [], { resumeWindowMs: 5 * 60_000, ...o.server });
  try {
    const rounds: FloodRound[] = [];
    for (let r = 0; r <= o.rounds; r++) {
      const began = performance.now();
      await round(server.url, r, o);
      const metrics = await (await fetch(`${server.http}/metrics`)).text();
      if (gauge(metrics, 'steplens_active_sessions') !== 0) throw new Error('flood: sessions still open after the round');
      const mem = await server.memory();
      rounds.push({
        round: r,
        heapMB: mem.heapUsed / 1e6,
        rssMB: mem.rss / 1e6,
        endedSessions: gauge(metrics, 'steplens_ended_sessions'),
        endedMB: gauge(metrics, 'steplens_ended_session_bytes') / 1e6,
        seconds: (performance.now() - began) / 1000,
      });
    }
    const first = rounds[0]!;
    const last = rounds[rounds.length - 1]!;
    return { rounds, heapGrowth: last.heapMB / first.heapMB - 1, rssGrowth: last.rssMB / first.rssMB - 1 };
  } finally {
    await server.close();
  }
}
