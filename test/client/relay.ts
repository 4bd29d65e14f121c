/**
 * A WebSocket relay in front of the test server, for client tests that need the wire changed on the way (frames
 * dropped, added, a socket cut): what each connection does to the messages is the test's, the plumbing is here.
 */
import { afterEach } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';

/** What one relayed connection does; by default it passes every message on. */
export interface RelayHooks {
  /** A client message; `forward()` passes it on to the server (queued until the server socket opens). */
  fromClient?: (text: string, forward: () => void, down: WebSocket) => void;
  /** A server message, after it was passed on to the client. */
  fromServer?: (text: string, down: WebSocket) => void;
}

/** Registers an afterEach that closes the file's relays; the function returned starts one and gives its stream URL. */
export function useRelays(upstream: () => string): (connection?: () => RelayHooks) => Promise<string> {
  const relays: WebSocketServer[] = [];
  afterEach(async () => {
    for (const r of relays.splice(0)) {
      for (const c of r.clients) c.terminate();
      await new Promise((resolve) => r.close(resolve));
    }
  });
  return async (connection = () => ({})) => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    relays.push(wss);
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (down) => {
      const hooks = connection();
      const up = new WebSocket(upstream());
      const queued: string[] = [];
      up.on('open', () => queued.splice(0).forEach((m) => up.send(m)));
      down.on('message', (data: Buffer) => {
        const text = data.toString();
        const forward = (): void => void (up.readyState === up.OPEN ? up.send(text) : queued.push(text));
        if (hooks.fromClient) hooks.fromClient(text, forward, down);
        else forward();
      });
      up.on('message', (data: Buffer) => {
        const text = data.toString();
        down.send(text);
        hooks.fromServer?.(text, down);
      });
      down.on('close', () => up.close());
    });
    return `ws://127.0.0.1:${(wss.address() as { port: number }).port}/v1/stream`;
  };
}
