/**
 * The team's corpus as a clone has it: test/fixtures/corpus.tar.br (55 real runs, 5 formats; origins in SOURCES.md
 * inside it), unpacked once into test/.corpus (git-ignored). vitest's global setup, the benchmarks and
 * `npm run build-examples` all unpack it here, so none of them needs an earlier `npx vitest run`; nothing reads
 * ../shared. Run directly (`node dist/bench/unpack-corpus.js`) it unpacks and prints the folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tar from 'tar';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The repository root (from bench/ and from dist/bench/). */
const REPO = HERE.includes(`${path.sep}dist${path.sep}`) ? path.resolve(HERE, '../..') : path.resolve(HERE, '..');
const ARCHIVE = path.join(REPO, 'test', 'fixtures', 'corpus.tar.br');
const ROOT = path.join(REPO, 'test', '.corpus');

/** The unpacked corpus directory (no trailing slash). */
export const CORPUS_DIR = path.join(ROOT, 'corpus');

/** Unpacks the archive unless the unpacked copy is of this very archive (a stamp holds its hash). */
export function ensureCorpus(): string {
  const hash = createHash('sha256').update(readFileSync(ARCHIVE)).digest('hex');
  const stamp = path.join(ROOT, 'STAMP');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(CORPUS_DIR)) return CORPUS_DIR;
  // Unpack beside, then swap in, so a run that is interrupted never leaves half a corpus behind.
  const staging = `${ROOT}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  tar.x({ file: ARCHIVE, cwd: staging, sync: true, strict: true });
  writeFileSync(path.join(staging, 'STAMP'), hash);
  rmSync(ROOT, { recursive: true, force: true });
  renameSync(staging, ROOT);
  return CORPUS_DIR;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(`corpus: ${ensureCorpus()}\n`);
}
