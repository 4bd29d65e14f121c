/**
 * Test helpers for bounds on work, counted in this process's CPU time rather than wall-clock: on a loaded machine
 * (CI under the whole suite, 2 cores shared) wall-clock stretched a 20 ms parse past 100 ms and 50,000 adds of
 * ~300 ms past 2 s. CPU time follows the work, not the load.
 */
import { vi } from 'vitest';

/** This process's CPU time so far (user and system), in milliseconds. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * `performance.now` reads {@link cpuMs} until restored (vi.restoreAllMocks does too): a wall-clock budget in the code
 * under test then counts the work it bounds, not the time the process waited for a core.
 */
export function useCpuClock(): { restore: () => void } {
  const spy = vi.spyOn(performance, 'now').mockImplementation(cpuMs);
  return { restore: () => spy.mockRestore() };
}
