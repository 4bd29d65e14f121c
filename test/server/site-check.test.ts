/**
 * Review s43, finding 1: with no tokens (`npm start`) any web page the operator visited could open
 * ws://127.0.0.1:8787/v1/stream (browsers apply no same-origin policy to WebSockets) and grow shared PTAs as the
 * local operator, and a DNS-rebinding name let it read sessions over HTTP. Now a browser's upgrade from another
 * origin is refused 403 `forbidden_origin` (tokens or not), and a server on loopback answers only its own names
 * (403 `forbidden_host` for any other Host). Clients that send no Origin (the node and Python clients, ws) are
 * not concerned.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { httpErrorSchema } from '../../src/protocol/http-bodies.js';
import { serverConfig } from '../../src/server/config.js';
import { isLoopback, SiteCheck } from '../../src/server/site-check.js';
import { rawHttp, useApp, type Running } from './helpers.js';

// No scoring here: no worker threads.
const open = useApp({ scoringWorkers: 0 });
const withTokens = useApp({ scoringWorkers: 0, tokens: ['site-token'] });
const allowing = useApp({ scoringWorkers: 0, allowOrigins: ['https://steplens.example/'], allowedHosts: ['steplens.internal', '[fd00::7]'] });
const anyOrigin = useApp({ scoringWorkers: 0, allowOrigins: ['*'], allowedHosts: ['*'] });

type Outcome = { status: 101 } | { status: number; code: string; message: string };

/** Opens the stream with these headers: 101, or the refusal's status and catalogue error. */
function upgrade(srv: Running, headers: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const { origin, ...rest } = headers;
    const ws = new WebSocket(srv.wsUrl, { headers: rest, ...(origin !== undefined ? { origin } : {}) });
    ws.on('open', () => {
      ws.close();
      resolve({ status: 101 });
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ...httpErrorSchema.parse(JSON.parse(body)).error }));
    });
    ws.on('error', reject);
  });
}

/** GET `path` with this Host header, on a raw socket (fetch does not let a page set Host): status and error code. */
async function getWithHost(srv: Running, host: string | undefined, path = '/v1/sessions'): Promise<{ status: number; code?: string; message?: string }> {
  // HTTP/1.0 without Host: what an old client may send (browsers always send one).
  const request = host === undefined ? `GET ${path} HTTP/1.0\r\n\r\n` : `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`;
  const { status, body } = await rawHttp(srv.url, request);
  const error = body.startsWith('{"error"') ? httpErrorSchema.parse(JSON.parse(body)).error : undefined;
  return { status, ...(error ?? {}) };
}

describe('a WebSocket upgrade from a web page of another origin', () => {
  it('is refused 403 forbidden_origin, naming the Origin and the flag; the server stays usable', async () => {
    const refused = await upgrade(open(), { origin: 'https://evil.example' });
    expect(refused).toEqual({ status: 403, code: 'forbidden_origin', message: expect.stringContaining("Origin 'https://evil.example' refused") as unknown });
    expect((refused as { message: string }).message).toContain('--allow-origin https://evil.example');
    // A sandboxed or file:// page sends Origin: null; a page on the same host but another port is another origin.
    const { port } = new URL(open().url);
    for (const origin of ['null', `http://127.0.0.1:${Number(port) + 1}`, `http://localhost:${Number(port) + 1}`])
      expect(await upgrade(open(), { origin }), origin).toMatchObject({ status: 403, code: 'forbidden_origin' });
    expect(await upgrade(open())).toEqual({ status: 101 });
    // The same port under another loopback name is this server's own page (the client dials 127.0.0.1).
    expect(await upgrade(open(), { origin: `http://localhost:${port}` })).toEqual({ status: 101 });
  });

  it('is refused with tokens too, before the token is looked at', async () => {
    const auth = { authorization: 'Bearer site-token' };
    expect(await upgrade(withTokens(), { ...auth, origin: 'https://evil.example' })).toMatchObject({ status: 403, code: 'forbidden_origin' });
    expect(await upgrade(withTokens(), { origin: 'https://evil.example' })).toMatchObject({ status: 403, code: 'forbidden_origin' });
    expect(await upgrade(withTokens())).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(await upgrade(withTokens(), auth)).toEqual({ status: 101 });
  });

  it("opens from the server's own origin (its Host, http or https), and from clients that send no Origin", async () => {
    const { host } = new URL(open().url);
    for (const origin of [`http://${host}`, `https://${host}`, `HTTP://${host}`]) expect(await upgrade(open(), { origin }), origin).toEqual({ status: 101 });
    expect(await upgrade(open(), { origin: 'http://localhost:1234', host: 'localhost:1234' })).toEqual({ status: 101 });
    expect(await upgrade(open(), { origin: 'http://localhost', host: 'localhost' })).toEqual({ status: 101 });
    expect(await upgrade(open(), { origin: 'https://localhost', host: 'localhost:443' })).toEqual({ status: 101 });
    expect(await upgrade(open(), { origin: 'http://localhost', host: 'localhost:443' })).toMatchObject({ status: 403, code: 'forbidden_origin' });
    expect(await upgrade(open(), {})).toEqual({ status: 101 });
  });

  it('opens from an origin listed with --allow-origin, and from any with *', async () => {
    expect(await upgrade(allowing(), { origin: 'https://steplens.example' })).toEqual({ status: 101 });
    expect(await upgrade(allowing(), { origin: 'https://steplens.example:8443' })).toMatchObject({ status: 403, code: 'forbidden_origin' });
    expect(await upgrade(allowing(), { origin: 'http://steplens.example' })).toMatchObject({ status: 403, code: 'forbidden_origin' });
    expect(await upgrade(anyOrigin(), { origin: 'https://evil.example' })).toEqual({ status: 101 });
  });
});

describe('the Host of a request to a server listening on loopback', () => {
  it('is refused 403 forbidden_host for another name (DNS rebinding), HTTP and upgrades, naming the Host and the flag', async () => {
    const { port } = new URL(open().url);
    const res = await getWithHost(open(), `attacker.example:${port}`);
    expect(res).toEqual({ status: 403, code: 'forbidden_host', message: expect.stringContaining(`Host 'attacker.example:${port}' is not a name of this server`) as unknown });
    expect(res.message).toContain('--allowed-host attacker.example');
    for (const host of ['127.0.0.2', '10.0.0.1', 'localhost.attacker.example', '[::2]', 'evil@localhost', 'steplens.internal'])
      expect(await getWithHost(open(), host), host).toMatchObject({ status: 403, code: 'forbidden_host' });
    // The open probes too: the rebinding page learns nothing, not even that a server is there.
    expect(await getWithHost(open(), 'attacker.example', '/healthz')).toMatchObject({ status: 403, code: 'forbidden_host' });
    expect(await upgrade(open(), { host: `attacker.example:${port}` })).toMatchObject({ status: 403, code: 'forbidden_host' });
    expect(await upgrade(open(), { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` })).toMatchObject({ status: 403, code: 'forbidden_host' });
  });

  it('is answered for localhost, 127.0.0.1, [::1] (any port, any case), a request without Host, and names listed with --allowed-host', async () => {
    const { port } = new URL(open().url);
    for (const host of ['localhost', `localhost:${port}`, 'LOCALHOST:1', '127.0.0.1', `127.0.0.1:${port}`, '[::1]', `[::1]:${port}`, undefined])
      expect(await getWithHost(open(), host), host).toEqual({ status: 200 });
    for (const host of ['steplens.internal', `Steplens.Internal:${port}`, '[fd00::7]:80']) expect(await getWithHost(allowing(), host), host).toEqual({ status: 200 });
    expect(await getWithHost(anyOrigin(), 'attacker.example')).toEqual({ status: 200 });
  });
});

describe('SiteCheck', () => {
  const asked = (bound: ConstructorParameters<typeof SiteCheck>[2], host: string) => new SiteCheck([], [], bound).refusal({ host }, false)?.code;
  const v4 = (address: string) => () => [{ address, family: 'IPv4', port: 8787 }];

  it('checks the Host only when every bound address is loopback (its own address answered), not bound elsewhere nor before listening', () => {
    expect(asked(v4('127.0.0.1'), 'attacker.example')).toBe('forbidden_host');
    expect(asked(v4('127.0.0.5'), '127.0.0.5:8787')).toBeUndefined();
    expect(asked(() => [{ address: '::1', family: 'IPv6', port: 8787 }, ...v4('127.0.0.1')()], 'attacker.example')).toBe('forbidden_host');
    // docker compose and Kubernetes reach the server by a service name: not checked.
    expect(asked(v4('0.0.0.0'), 'steplens')).toBeUndefined();
    expect(asked(() => [{ address: '::', family: 'IPv6', port: 8787 }], 'steplens')).toBeUndefined();
    expect(asked(v4('10.1.2.3'), 'attacker.example')).toBeUndefined();
    expect(asked(() => ['/run/steplens.sock'], 'attacker.example')).toBeUndefined();
    expect(asked(() => [], 'attacker.example')).toBeUndefined();
    expect([isLoopback('127.9.9.9'), isLoopback('::1'), isLoopback('::ffff:127.0.0.1'), isLoopback('::'), isLoopback('128.0.0.1')]).toEqual([true, true, true, false, false]);
  });

  it('refuses upgrades from another origin wherever it listens, and takes Sec-WebSocket-Origin (version 8)', () => {
    const check = new SiteCheck([], [], v4('0.0.0.0'));
    expect(check.refusal({ host: 'steplens:8787', origin: 'http://steplens:8787' }, true)).toBeUndefined();
    expect(check.refusal({ host: 'steplens:8787', origin: 'https://evil.example' }, true)?.code).toBe('forbidden_origin');
    expect(check.refusal({ host: 'steplens:8787', 'sec-websocket-origin': 'https://evil.example' }, true)?.code).toBe('forbidden_origin');
    // Plain HTTP is not checked for Origin: a cross-site fetch cannot read the answer, nor send a JSON body without CORS.
    expect(check.refusal({ host: 'steplens:8787', origin: 'https://evil.example' }, false)).toBeUndefined();
  });

  it("takes a loopback-only server's names as one site (a page at localhost opening 127.0.0.1), on the same port only", () => {
    const check = new SiteCheck([], [], v4('127.0.0.1'));
    for (const origin of ['http://localhost:8787', 'http://127.0.0.1:8787', 'http://[::1]:8787']) expect(check.refusal({ host: '127.0.0.1:8787', origin }, true), origin).toBeUndefined();
    expect(check.refusal({ host: 'localhost:8787', origin: 'http://127.0.0.1:8787' }, true)).toBeUndefined();
    // Another port is another server on the machine; another name is another site.
    expect(check.refusal({ host: '127.0.0.1:8787', origin: 'http://localhost:3000' }, true)?.code).toBe('forbidden_origin');
    expect(check.refusal({ host: '127.0.0.1:8787', origin: 'http://attacker.example:8787' }, true)?.code).toBe('forbidden_origin');
    // Bound elsewhere too: names are not known to be one machine's, so only the Host's own name is the server's.
    expect(new SiteCheck([], [], v4('0.0.0.0')).refusal({ host: '127.0.0.1:8787', origin: 'http://localhost:8787' }, true)?.code).toBe('forbidden_origin');
  });

  it('refuses a bad --allow-origin or --allowed-host at start (flags and STEPLENS_ALLOW_ORIGINS / STEPLENS_ALLOWED_HOSTS)', async () => {
    const config = await serverConfig(['--allow-origin', 'https://a.example', '--allow-origin', '*', '--allowed-host', 'steplens_1'], { STEPLENS_ALLOWED_HOSTS: 'ignored' }, '/');
    expect([config.app.allowOrigins, config.app.allowedHosts]).toEqual([['https://a.example', '*'], ['steplens_1']]);
    const fromEnv = await serverConfig([], { STEPLENS_ALLOW_ORIGINS: 'https://a.example, http://b.example:8080', STEPLENS_ALLOWED_HOSTS: 'a.internal,' }, '/');
    expect([fromEnv.app.allowOrigins, fromEnv.app.allowedHosts]).toEqual([['https://a.example', 'http://b.example:8080'], ['a.internal']]);
    expect((await serverConfig([], {}, '/')).app).not.toHaveProperty('allowOrigins');
    for (const bad of ['evil.example', 'https://a.example/path', 'null'])
      await expect(serverConfig(['--allow-origin', bad], {}, '/')).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining(`--allow-origin: '${bad}' is not an origin`) as unknown });
    await expect(serverConfig(['--allowed-host', 'a.internal:8787'], {}, '/')).rejects.toMatchObject({ code: 'usage', message: expect.stringContaining('without a port') as unknown });
  });
});
