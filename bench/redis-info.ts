/**
 * What Redis did over a window, from `INFO`: CPU seconds of the server (all
 * its threads, microsecond resolution, unlike /proc's 10 ms ticks), calls and
 * in-command time per command (commands a Lua script runs are counted under
 * their own names as well as inside `evalsha`), bytes read from and written
 * to clients, and bytes appended to the append-only file.
 */
import type { Redis } from 'ioredis';

export interface RedisSample {
  /** used_cpu_user + used_cpu_sys (seconds). */
  cpu: number;
  /** Per command (lower case, as `cmdstat_<name>`): calls and µs spent inside the command. */
  calls: Record<string, number>;
  usec: Record<string, number>;
  netIn: number;
  netOut: number;
  /** aof_current_size (0 without an append-only file). */
  aof: number;
}

function fields(text: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) m.set(line.slice(0, at), line.slice(at + 1));
  }
  return m;
}

/** One `INFO cpu commandstats stats persistence`. */
export async function sampleRedis(redis: Redis): Promise<RedisSample> {
  const f = fields(String(await redis.call('INFO', 'cpu', 'commandstats', 'stats', 'persistence')));
  const num = (k: string): number => Number(f.get(k) ?? 0);
  const calls: Record<string, number> = {};
  const usec: Record<string, number> = {};
  for (const [k, v] of f) {
    if (!k.startsWith('cmdstat_')) continue;
    const name = k.slice('cmdstat_'.length);
    calls[name] = Number(/calls=(\d+)/.exec(v)?.[1] ?? 0);
    usec[name] = Number(/usec=(\d+)/.exec(v)?.[1] ?? 0);
  }
  return { cpu: num('used_cpu_user') + num('used_cpu_sys'), calls, usec, netIn: num('total_net_input_bytes'), netOut: num('total_net_output_bytes'), aof: num('aof_current_size') };
}

/** `after - before`, per field and per command (commands not seen before count from 0). */
export function redisDelta(before: RedisSample, after: RedisSample): RedisSample {
  const sub = (a: Record<string, number>, b: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v - (b[k] ?? 0)]));
  return {
    cpu: after.cpu - before.cpu,
    calls: sub(after.calls, before.calls),
    usec: sub(after.usec, before.usec),
    netIn: after.netIn - before.netIn,
    netOut: after.netOut - before.netOut,
    aof: after.aof - before.aof,
  };
}

/** The sum of several deltas. */
export function redisSum(xs: readonly RedisSample[]): RedisSample {
  const zero: RedisSample = { cpu: 0, calls: {}, usec: {}, netIn: 0, netOut: 0, aof: 0 };
  const add = (a: Record<string, number>, b: Record<string, number>): Record<string, number> => {
    const out = { ...a };
    for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + v;
    return out;
  };
  return xs.reduce((s, x) => ({ cpu: s.cpu + x.cpu, calls: add(s.calls, x.calls), usec: add(s.usec, x.usec), netIn: s.netIn + x.netIn, netOut: s.netOut + x.netOut, aof: s.aof + x.aof }), zero);
}
