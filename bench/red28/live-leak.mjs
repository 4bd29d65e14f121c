// Round 28, item 2's live feed: bob's feed (all his sessions) open while alice runs sessions with a marked task and
// id; bob's bytes must never name them. node live-leak.mjs BASE_URL
import http from 'node:http';
import { setTimeout } from 'node:timers';
import { session, stream } from './lib.mjs';
const base = process.argv[2];
let got = '';
const req = http.get(`${base}/v1/live`, { headers: { authorization: 'Bearer bob' } }, (res) => res.on('data', (d) => (got += d)));
await new Promise((r) => setTimeout(r, 500));
const a = await stream(base.replace('http', 'ws') + '/v1/stream', 'alice');
const b = await stream(base.replace('http', 'ws') + '/v1/stream', 'bob');
for (let i = 0; i < 5; i++) {
  await session(a, { session: `alice-secret-${i}`, task: `alice-task-secret`, agent: 'alice-agent-secret' }, 6, true);
  await session(b, { session: `bob-own-${i}`, task: 'bob-task' }, 6, false);
}
await new Promise((r) => setTimeout(r, 1500));
req.destroy();
console.log(`bob's feed: ${got.length} bytes, names bob's sessions: ${got.includes('bob-own-4')}, names alice's: ${/secret/.test(got)}`);
for (const m of got.matchAll(/.{0,120}secret.{0,120}/g)) console.log('  ', m[0]);
a.close();
b.close();
process.exit(0);
