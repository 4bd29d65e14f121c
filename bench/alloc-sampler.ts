/**
 * Bytes allocated per function, young garbage included: loaded with `--import`, it starts V8's sampling heap
 * profiler (objects collected by minor and major GCs kept in the profile, so short-lived garbage counts) and
 * writes the profile when the process exits. Summarise it with `bench/alloc-top.ts`.
 *
 *   ALLOC_OUT=/tmp/a.heapprofile node --import ./dist/bench/alloc-sampler.js dist/bench/session-cost.js --profile --sessions 200 --passes 5
 *   node dist/bench/alloc-top.js /tmp/a.heapprofile STEPS
 *
 * `ALLOC_INTERVAL` (bytes, default 1024) is the mean sampling interval. `ALLOC_SURVIVORS=1` leaves out what minor
 * GCs collected: what is left survived a scavenge (copied or promoted, the work of a scavenge pause) or lives on.
 * `ALLOC_DELAY_MS` starts sampling that long after start-up, so that a server's module loading and warm-up are left out.
 */
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';

const session = new Session();
session.connect();
session.post('HeapProfiler.enable');
const start = (): void =>
  session.post('HeapProfiler.startSampling', {
    samplingInterval: Number(process.env.ALLOC_INTERVAL ?? 1024),
    includeObjectsCollectedByMinorGC: process.env.ALLOC_SURVIVORS !== '1',
    includeObjectsCollectedByMajorGC: true,
  });
const delayMs = Number(process.env.ALLOC_DELAY_MS ?? 0);
if (delayMs > 0) setTimeout(start, delayMs).unref();
else start();
process.on('exit', () => {
  // The in-process inspector answers synchronously, so the profile is written before the process ends.
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) process.stderr.write(`alloc-sampler: ${error.message}\n`);
    else writeFileSync(process.env.ALLOC_OUT ?? 'alloc.heapprofile', JSON.stringify(result.profile));
  });
});
