/**
 * Which sites may talk to the server (review s43, finding 1). Browsers apply no same-origin policy to WebSockets:
 * any page the operator visits can open `ws://127.0.0.1:8787/v1/stream`, and without tokens every client is the
 * local operator. A DNS-rebinding name (one that resolves to 127.0.0.1 once the page is loaded) makes a page of
 * another site same-origin with the server for HTTP too. So:
 *
 * - a WebSocket upgrade whose `Origin` is present and is not the server's own (its host:port is not the request's
 *   `Host`; on a loopback-only server its loopback names count as one) is refused, unless listed (`--allow-origin`, `*`: any); non-browser clients send no `Origin`;
 * - a server bound to loopback addresses only answers a `Host` that names it: `localhost`, `127.0.0.1`, `[::1]`
 *   or an address it is bound to (any port), or a listed name (`--allowed-host`, `*`: any). Bound to another
 *   address (docker compose, Kubernetes: clients use service names) the Host is not checked.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { SteplensError } from '../errors.js';
import { printable } from '../printable.js';

/** The names a loopback server always answers (with any port). */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** A Host header: a name or IPv4 address, or an IPv6 address in brackets, then an optional port. */
const HOST = /^(?:\[([0-9a-f:.]+)\]|([^\s:@/[\]]+))(?::(\d{1,5}))?$/i;

/** A name `--allowed-host` takes: letters, digits, `.`, `_`, `-` (docker service names have `_`), or an IP address. */
const HOST_NAME = /^[a-z0-9_.-]+$/i;

/** An origin `--allow-origin` takes: `scheme://host[:port]`, nothing after. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i;

/** The name and port of a Host header (the name lowercase, an IPv6 address without brackets), or undefined when it is not one. */
function parseHost(host: string): { name: string; port: string | undefined } | undefined {
  const m = HOST.exec(host);
  const name = m?.[1] ?? m?.[2];
  return name === undefined ? undefined : { name: name.toLowerCase(), port: m?.[3] };
}

/** An origin as browsers send it: `http(s)://host[:port]` with the host lowercase and the scheme's default port left out. */
function normalOrigin(origin: string): string | undefined {
  const text = origin.replace(/\/$/, '');
  if (!ORIGIN.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : text.toLowerCase();
  } catch {
    return undefined;
  }
}

/** True for 127.0.0.0/8, ::1 and IPv4-mapped 127.x addresses. */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase();
  return (isIP(a) === 4 && a.startsWith('127.')) || a === '::1' || a.startsWith('::ffff:127.');
}

/** A header value as one line for a message: control characters escaped, cut at 200 characters. */
const shown = (value: string): string => `'${printable(value.length > 200 ? `${value.slice(0, 200)}...` : value)}'`;

export interface SiteRefusal {
  code: 'forbidden_origin' | 'forbidden_host';
  message: string;
  /** The first refusal with this message (of the first 64 kinds): worth a log line; a page that retries in a loop is not. */
  first: boolean;
}

/** Distinct refusals logged at most. */
const LOGGED = 64;

export class SiteCheck {
  private readonly anyOrigin: boolean;
  private readonly origins: Set<string>;
  private readonly anyHost: boolean;
  private readonly hosts: Set<string>;
  /** The names a loopback-only server answers; null once it is known to listen elsewhere too; undefined before it listens. */
  private loopback: Set<string> | null | undefined;
  private readonly logged = new Set<string>();

  /**
   * `allowOrigins`: origins (`scheme://host[:port]`) whose pages may open the stream besides the server's own,
   * `*` for any; `allowedHosts`: names a loopback server answers besides its own, `*` for any; `bound`: the
   * addresses the server listens on (fastify's `addresses()`; none before `listen`, e.g. `inject`: no Host check).
   * A value that is neither is a usage error.
   */
  constructor(
    allowOrigins: readonly string[],
    allowedHosts: readonly string[],
    private readonly bound: () => ReadonlyArray<AddressInfo | string>,
  ) {
    this.anyOrigin = allowOrigins.includes('*');
    this.origins = new Set();
    for (const o of allowOrigins.filter((x) => x !== '*')) {
      const normal = normalOrigin(o.trim());
      if (normal === undefined) throw new SteplensError('usage', `--allow-origin: ${shown(o)} is not an origin (scheme://host[:port], e.g. https://steplens.example) or *`);
      this.origins.add(normal);
    }
    this.anyHost = allowedHosts.includes('*');
    this.hosts = new Set();
    for (const h of allowedHosts.filter((x) => x !== '*')) {
      const name = h.trim().replace(/^\[(.*)\]$/, '$1');
      if (!HOST_NAME.test(name) && isIP(name) !== 6) throw new SteplensError('usage', `--allowed-host: ${shown(h)} is not a host name or address without a port (any port is allowed), or *`);
      this.hosts.add(name.toLowerCase());
    }
  }

  /** Why a request (an upgrade when `upgrade`) with these headers is refused, or undefined when it is not. */
  refusal(headers: IncomingHttpHeaders, upgrade: boolean): SiteRefusal | undefined {
    const host = this.hostRefusal(headers.host);
    const origin = host === undefined && upgrade ? this.originRefusal(headers) : undefined;
    const message = host ?? origin;
    if (message === undefined) return undefined;
    const first = this.logged.size < LOGGED && !this.logged.has(message);
    if (first) this.logged.add(message);
    return { code: host !== undefined ? 'forbidden_host' : 'forbidden_origin', message, first };
  }

  /** The names a server bound to loopback only answers, or undefined when it listens elsewhere too (or not at all). */
  private loopbackNames(): Set<string> | undefined {
    if (this.loopback === undefined) {
      const addresses = this.bound();
      if (addresses.length === 0) return undefined;
      // Found once: the addresses do not change while the server listens (a unix socket counts as elsewhere: a proxy's).
      const ips = addresses.flatMap((a) => (typeof a === 'string' ? [] : [a.address.toLowerCase()]));
      this.loopback = ips.length === addresses.length && ips.every(isLoopback) ? new Set([...LOOPBACK_NAMES, ...ips]) : null;
    }
    return this.loopback ?? undefined;
  }

  /** A request without Host is an HTTP/1.0 client's (browsers always send one): answered, as before. */
  private hostRefusal(host: string | undefined): string | undefined {
    if (host === undefined || this.anyHost) return undefined;
    const names = this.loopbackNames();
    if (names === undefined) return undefined;
    const name = parseHost(host)?.name;
    if (name !== undefined && (names.has(name) || this.hosts.has(name))) return undefined;
    const flag = name !== undefined && (HOST_NAME.test(name) || isIP(name) === 6) ? name : 'NAME';
    return (
      `Host ${shown(host)} is not a name of this server: it listens on loopback only and answers localhost, 127.0.0.1, [::1] or its own address ` +
      `(a page of another site can point a name of its own at 127.0.0.1: DNS rebinding); to answer that name, start the server with --allowed-host ${printable(flag)}`
    );
  }

  private originRefusal(headers: IncomingHttpHeaders): string | undefined {
    // Sec-WebSocket-Origin: what a version 8 handshake sends instead.
    const raw = headers.origin ?? headers['sec-websocket-origin'];
    const origin = Array.isArray(raw) ? raw[0] : raw;
    if (origin === undefined || this.anyOrigin) return undefined;
    const normal = normalOrigin(origin);
    if (normal !== undefined && (this.origins.has(normal) || sameOrigin(normal, headers.host, this.loopbackNames()))) return undefined;
    const flag = normal ?? 'ORIGIN';
    return (
      `WebSocket upgrade from Origin ${shown(origin)} refused: only pages of the server's own origin (Host ${shown(headers.host ?? '')}) may open the stream, ` +
      `not another site's (cross-site WebSocket hijacking); to allow pages of that origin, start the server with --allow-origin ${printable(flag)}`
    );
  }
}

/**
 * True when `origin` (normalised) is http(s) on the request's Host name and port (the scheme's default port when the
 * Host has none). `loopback`: the names of a server bound to loopback only, which are one site: a page it served at
 * `http://localhost:PORT` may open `ws://127.0.0.1:PORT` (the port must still match: another port is another server).
 */
function sameOrigin(origin: string, host: string | undefined, loopback?: ReadonlySet<string>): boolean {
  if (host === undefined) return false;
  const h = parseHost(host);
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (h === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false;
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  const name = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const sameName = name === h.name || (loopback !== undefined && loopback.has(name) && loopback.has(h.name));
  return sameName && (url.port || defaultPort) === (h.port ?? defaultPort);
}
