/**
 * `docker build` sends the checkout minus what `.dockerignore` excludes; a `COPY` of an excluded path fails the
 * build ("not found"). No container daemon runs here, so this reads both files: every path the Dockerfile copies
 * from the build context must exist in the checkout and be left in the context by `.dockerignore` (read as
 * Docker reads it: the last pattern that matches the path or one of its parent folders decides, `!` keeps).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Rule {
  keep: boolean;
  pattern: RegExp;
}

/** One `.dockerignore` line as a regular expression over a context-relative path (`*`, `?`, `**`). */
function rule(line: string): Rule {
  const keep = line.startsWith('!');
  const glob = path.posix.normalize((keep ? line.slice(1) : line).trim().replace(/^\/+/, ''));
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return { keep, pattern: new RegExp(`^${source}$`) };
}

function ignoreRules(text: string): Rule[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map(rule);
}

/** Whether `.dockerignore` leaves `file` (context-relative) out of the build context. */
function excluded(rules: readonly Rule[], file: string): boolean {
  const parts = file.split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let out = false;
  for (const r of rules) if (prefixes.some((p) => r.pattern.test(p))) out = !r.keep;
  return out;
}

/** The sources of the Dockerfile's `COPY` lines that read the build context (not `--from=` a stage). */
function contextCopies(dockerfile: string): string[] {
  const sources: string[] = [];
  for (const line of dockerfile.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0]?.toUpperCase() !== 'COPY' || words.some((w) => w.startsWith('--from='))) continue;
    const args = words.slice(1).filter((w) => !w.startsWith('--'));
    sources.push(...args.slice(0, -1));
  }
  return sources;
}

describe('docker build context', () => {
  const rules = ignoreRules(readFileSync(path.join(REPO, '.dockerignore'), 'utf8'));
  const copies = contextCopies(readFileSync(path.join(REPO, 'Dockerfile'), 'utf8'));

  it('reads .dockerignore as Docker does (the last matching pattern decides)', () => {
    const sample = ignoreRules('node_modules\ndata/*\n!data/example\n*.log\n');
    expect(excluded(sample, 'node_modules/x/index.js')).toBe(true);
    expect(excluded(sample, 'data/example/a.json')).toBe(false);
    expect(excluded(sample, 'data/other.json')).toBe(true);
    expect(excluded(sample, 'server.log')).toBe(true);
    expect(excluded(sample, 'logs/server.log')).toBe(false);
    expect(excluded(sample, 'src/a.ts')).toBe(false);
  });

  it('copies only paths that exist and that .dockerignore keeps in the context', () => {
    expect(copies).toContain('package.json');
    expect(copies).toContain('data/forecast.json');
    for (const source of copies) {
      expect(existsSync(path.join(REPO, source)), `${source} exists`).toBe(true);
      expect(excluded(rules, source), `${source} is excluded by .dockerignore`).toBe(false);
    }
  });
});
