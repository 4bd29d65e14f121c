/**
 * The pinger (pinger.ts) in a process of its own, as another client is: the round trips it records are then the
 * server's alone, not delayed by what the bench process does meanwhile. In the bench's main thread, a 47 MB
 * request body encoded and written by `fetch` held its pings 300 ms while the server's event loop waited at most
 * 33 ms; in a worker thread of the bench process, pings during a 59 MB batch stalled up to 1 s after a burst
 * from another worker (the server's loop again under 60 ms).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pinger } from './pinger.js';

export interface ProcessPinger {
  /** Round trips (ms) since the previous call; a ping still unanswered counts with its age so far. */
  window: () => Promise<Float64Array>;
  stop: () => Promise<void>;
}

/** Starts a pinger on `url` in a child process; resolves once its connection is open. */
export async function pingerProcess(url: string, everyMs = 5): Promise<ProcessPinger> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--pinger', url, String(everyMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      // Both listeners go once either fires: left behind, one `error` listener a window piled up past Node's warning.
      const onMessage = (m: unknown): void => {
        child.off('error', onError);
        resolve(m as T);
      };
      const onError = (error: Error): void => {
        child.off('message', onMessage);
        reject(error);
      };
      child.once('message', onMessage).once('error', onError);
    });
  await next<'open'>();
  return {
    window: async () => {
      const reply = next<number[]>();
      child.send('window');
      return Float64Array.from(await reply);
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}

if (process.argv[2] === '--pinger' && process.send !== undefined) {
  const ping = await pinger(process.argv[3]!, Number(process.argv[4]));
  process.on('message', (m) => {
    if (m === 'window') process.send?.([...ping.window()]);
    else {
      ping.stop();
      process.disconnect();
    }
  });
  // The parent gone (killed): stop too.
  process.once('disconnect', () => {
    ping.stop();
  });
  process.send('open');
}
