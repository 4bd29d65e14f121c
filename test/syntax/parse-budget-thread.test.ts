/**
 * The parse budget's CPU backstop reads the parsing thread's CPU where Node can tell it (`process.threadCpuUsage`):
 * read from the whole process, a scoring worker busy beside a parse on another thread brought the backstop forward,
 * so a real parse could halt on a busy server and not on a quiet one (T94's point). Node 20 has no thread clock
 * (the backstop reads the process there, documented in parse-budget.ts); CI runs this on Node 24.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PARSE_CPU_BACKSTOP_MS, parseBudget } from '../../src/syntax/parse-budget.js';

const hasThreadClock = typeof (process as { threadCpuUsage?: unknown }).threadCpuUsage === 'function';

describe('the parse budget CPU backstop', () => {
  it.skipIf(!hasThreadClock)("does not count another thread's CPU", async () => {
    const start = process.cpuUsage();
    const check = parseBudget(Number.MAX_SAFE_INTEGER); // no operation limit: only the backstop can halt
    // Another thread burns its own CPU well past the backstop while this one only waits for it.
    const burnMs = PARSE_CPU_BACKSTOP_MS * 3;
    const burn = new Worker(`const cpu = () => { const u = process.threadCpuUsage(); return (u.user + u.system) / 1000; }; while (cpu() < ${burnMs});`, { eval: true });
    await new Promise((resolve) => burn.once('exit', resolve));
    expect(check()).toBe(false);
    // The process clock did pass the backstop (the worker's CPU): read from it, the check would have halted here.
    const spent = process.cpuUsage(start);
    expect((spent.user + spent.system) / 1000).toBeGreaterThan(burnMs);
  });

  it("halts on this thread's own CPU past the backstop", () => {
    const check = parseBudget(Number.MAX_SAFE_INTEGER);
    const end = performance.now() + PARSE_CPU_BACKSTOP_MS * 1.5;
    let spins = 0;
    while (performance.now() < end || (!check() && spins < 1e9)) spins++;
    expect(check()).toBe(true);
  });
});
