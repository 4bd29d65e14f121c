/**
 * A server address's trailing slashes are cut by a loop: `/\/+$/` rescanned a run of slashes inside the path from each
 * of them (16 KiB of slashes: 0.13 s, a megabyte minutes). The stream URL is the old one's on generated addresses, and a
 * megabyte of slashes gives one. No timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { streamUrl } from '../../src/client/url.js';
import { generated } from '../labeler/helpers.js';

/** streamUrl as it was (the same URL handling, the old pattern). */
function oldStreamUrl(url: string): string {
  const u = new URL(url);
  const http = u.protocol === 'http:' || u.protocol === 'https:';
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  const path = u.pathname.replace(/\/+$/, '');
  if (path === '' || (http && !path.endsWith('/v1/stream'))) u.pathname = `${path}/v1/stream`;
  return u.toString();
}

describe('trailing slashes of a server address', () => {
  it('give the stream URL the old pattern gave', () => {
    const parts = ['/', '//', 'a', 'v1', '/v1/stream', '%2F', '?q=/', '#/', '.', '..'];
    for (const base of ['http://h', 'https://h:8080', 'ws://h', 'wss://h']) {
      for (const path of generated(parts, 3_000)) {
        const url = `${base}/${path}`;
        expect(streamUrl(url), url).toBe(oldStreamUrl(url));
      }
    }
  });

  it('a megabyte of slashes in the path gives a URL (the old pattern ran for minutes)', () => {
    expect(streamUrl(`http://h/a${'/'.repeat(1 << 20)}`)).toBe('ws://h/a/v1/stream');
    expect(streamUrl(`http://h/${'/'.repeat(1 << 20)}x`)).toBe(`ws://h/${'/'.repeat(1 << 20)}x/v1/stream`);
  });
});
