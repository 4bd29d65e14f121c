/** Bearer-token auth: tokens from flags, `STEPLENS_TOKENS` and a token file; checked in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { SteplensError } from '../errors.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Collects tokens: explicit ones, comma/space-separated `envValue`, one per line of `file` (`#` comments). */
export async function loadTokens(sources: { tokens?: string[]; envValue?: string; file?: string }): Promise<string[]> {
  const out = [...(sources.tokens ?? [])];
  if (sources.envValue) out.push(...sources.envValue.split(/[\s,]+/));
  if (sources.file) {
    let text: string;
    try {
      text = await readFile(sources.file, 'utf8');
    } catch (error) {
      throw new SteplensError('usage', `cannot read token file ${sources.file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    for (const line of text.split('\n')) {
      const t = line.trim();
      if (t && !t.startsWith('#')) out.push(t);
    }
  }
  return [...new Set(out.map((t) => t.trim()).filter((t) => t.length > 0))];
}

/** Checks a request's token (`Authorization: Bearer T` or `?token=T`) against the configured ones. */
export class TokenChecker {
  private readonly digests: Buffer[];
  constructor(tokens: string[]) {
    this.digests = tokens.map(digest);
  }

  get enabled(): boolean {
    return this.digests.length > 0;
  }

  /** True when auth is off or the request carries a known token. */
  allows(request: FastifyRequest): boolean {
    if (!this.enabled) return true;
    const token = bearer(request.headers.authorization) ?? queryToken(request.url);
    if (token === undefined) return false;
    const d = digest(token);
    let found = false;
    for (const known of this.digests) found = timingSafeEqual(known, d) || found;
    return found;
  }

  /**
   * Who a request speaks for: the digest (hex) of its token while auth is on, undefined while it is off.
   * A session answers only to the principal that started it (resume, GET /v1/sessions/:id).
   */
  principal(request: FastifyRequest): string | undefined {
    if (!this.enabled) return undefined;
    const token = bearer(request.headers.authorization) ?? queryToken(request.url);
    return token === undefined ? undefined : digest(token).toString('hex');
  }
}

function bearer(header: string | undefined): string | undefined {
  const m = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

function queryToken(url: string): string | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  return new URLSearchParams(url.slice(q + 1)).get('token') ?? undefined;
}
