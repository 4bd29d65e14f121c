/**
 * Ways to read one big list element from a real redis-server (a chain's PTA: src/store/redis/value-text.ts), each
 * timed by its longest gap between two turns of this process' event loop and by what Redis spent on it
 * (`INFO commandstats`, reset before each): LINDEX as a string (ioredis decodes the reply in one go), as a Buffer,
 * as a Buffer decoded 1 MiB a turn (what the store does), and in pieces cut by a Lua script (`string.sub` of
 * `LINDEX key i`: every piece copies the whole element inside Redis).
 *
 *   node dist/bench/redis-value-read.js [--mb 8] [--rounds 3]
 */
import { redisClient } from './redis-client.js';
import { textInSlices } from '../src/store/redis/value-text.js';
import { benchArgs, numberFlag } from './args.js';
import { RedisServer } from './redis-server.js';
import { machineLine } from './report.js';
import { commandLine, fmt, printTable } from './timing.js';

const { values: args } = benchArgs({ options: { mb: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' } } });
const mb = numberFlag(args, 'mb', 'positive number');
const rounds = numberFlag(args, 'rounds', 'positive integer');
const PIECE_LUA = "local v = redis.call('LINDEX', KEYS[1], ARGV[1]) if not v then return false end return {#v, string.sub(v, ARGV[2], ARGV[3])}";

const server = await RedisServer.start('off');
const redis = redisClient(server.url);
// PTA-like JSON, mostly ASCII with a character of two bytes now and then.
const unit = '{"stage":"E","action":"shell","command":"echo w1 w2 w3 w4 w5 w6 é w7 w8 w9","n":12345},';
const text = unit.repeat(Math.ceil((mb * 1e6) / unit.length));
await redis.rpush('k', text);

/** Reads the element in Lua-cut pieces of `size` bytes, then decodes them a slice a turn. */
function luaPieces(size: number): () => Promise<string> {
  return async () => {
    const parts: Buffer[] = [];
    for (let at = 0, length = Infinity; at < length; at += size) {
      const [n, piece] = (await redis.callBuffer('EVAL', PIECE_LUA, 1, 'k', 0, at + 1, at + size)) as [number, Buffer];
      length = n;
      parts.push(piece);
    }
    return textInSlices(Buffer.concat(parts));
  };
}

const ways: Array<[string, () => Promise<unknown>]> = [
  ['LINDEX, string reply', () => redis.lindex('k', 0)],
  ['LINDEX, Buffer reply', () => redis.lindexBuffer('k', 0)],
  ['LINDEX, Buffer decoded 1 MiB a turn', async () => textInSlices((await redis.lindexBuffer('k', 0))!)],
  ['Lua pieces of 1 MiB', luaPieces(1 << 20)],
  ['Lua pieces of 4 MiB', luaPieces(4 << 20)],
];
const rows: string[][] = [];
try {
  for (let round = 0; round < rounds; round++) {
    for (const [name, read] of ways) {
      let last = performance.now();
      let longest = 0;
      let spinning = true;
      const spin = (): void => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        if (spinning) setImmediate(spin);
      };
      await redis.config('RESETSTAT');
      setImmediate(spin);
      const began = performance.now();
      const value = await read();
      const ms = performance.now() - began;
      spinning = false;
      if (typeof value === 'string' && value !== text) throw new Error(`${name}: read back ${value.length} characters, not the ${text.length} stored`);
      const spent = [...(await redis.info('commandstats')).matchAll(/^cmdstat_(\w+):calls=(\d+),usec=(\d+)/gm)]
        .filter((m) => m[1] !== 'config')
        .map((m) => `${m[1]} ${m[2]}x ${fmt(Number(m[3]) / 1000, 1)} ms`);
      rows.push([String(round + 1), name, fmt(ms, 0), fmt(longest, 1), spent.join(', ')]);
    }
  }
  console.log(`${commandLine(import.meta.url)}\n${machineLine()}\nelement: ${text.length} bytes`);
  printTable(['round', 'read', 'ms', 'longest turn gap ms', 'Redis: calls, CPU'], rows);
} finally {
  redis.disconnect();
  await server.destroy();
}
