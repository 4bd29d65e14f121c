/**
 * Test-file and scratch-script detection (method.md section 2.1). Paths are
 * repo-relative (absolute when outside the repository); matching ignores case.
 */
import { isOutsideRepo } from './paths.js';

/** What a file is to the labeler. */
export type FileRole = 'source' | 'test' | 'scratch';

const TEST_DIRS = new Set(['test', 'tests', 'testing', '__tests__']);
const TEST_PARTS = new Set(['test', 'tests', 'testing', 'conftest']);
const SCRATCH_PREFIX = /^(reproduce|repro|debug|check|verify|scratch|tmp)/i;

function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/**
 * Splits a file name into word parts at `_`, `-`, `.`, digits and camelCase boundaries. A capital run is split from
 * its start only (a match can always start there): a long run not followed by a lower-case letter is then not rescanned
 * from each of its capitals (a path of 16 KiB of capitals: 0.25 s).
 */
function wordParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/(?<![A-Z])([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.\-0-9]+/)
    .filter((s) => s !== '')
    .map((s) => s.toLowerCase());
}

/**
 * True for a test file: a `test`/`tests`/`testing` directory segment, or `test` as a
 * word part of the name. **Choice**: directory names are split into word parts too,
 * so a fixture app the agent creates (`test_app/models.py`, `tests_helpers/`) is test code.
 * Without the memo of {@link isTestPath} (tests compare both).
 */
export function testPathUncached(path: string): boolean {
  const segments = path.split('/').filter((s) => s !== '');
  const name = segments.pop() ?? '';
  if (segments.some((s) => TEST_DIRS.has(s.toLowerCase()) || wordParts(s).some((p) => TEST_DIRS.has(p)))) return true;
  const parts = wordParts(name);
  if (parts.some((p) => TEST_PARTS.has(p))) return true;
  return /\.(spec|test)\.[cm]?[jt]sx?$/i.test(name);
}

/** Paths answered, kept until the memo is full (then it starts over): every step asks about the same few files. */
export const TEST_PATH_MEMO_ENTRIES = 4096;
const testPaths = new Map<string, boolean>();

/**
 * True for a test file: a `test`/`tests`/`testing` directory segment, or `test` as a word part of the name
 * ({@link testPathUncached}). Memoised per path (pure: five regex passes and a split per call otherwise).
 */
export function isTestPath(path: string): boolean {
  let test = testPaths.get(path);
  if (test === undefined) {
    test = testPathUncached(path);
    if (testPaths.size >= TEST_PATH_MEMO_ENTRIES) testPaths.clear();
    if (path.length <= 1024) testPaths.set(path, test);
  }
  return test;
}

/** True when the file name starts like a scratch script (`reproduce*`, `debug*`, `tmp*`, ...). */
export function hasScratchName(path: string): boolean {
  return SCRATCH_PREFIX.test(baseName(path));
}

/** True for a path at the repository root (no directory part) or outside the repository. */
export function isRootOrOutside(path: string): boolean {
  return isOutsideRepo(path) || !path.includes('/');
}

/**
 * The role of a file. Scratch: created by the agent at the root or outside the
 * repository, or scratch-named and created by the agent or at root/outside
 * (**choice**: an existing `checks.py` deep in the source tree stays source).
 * Then test files; everything else is source.
 */
export function fileRole(path: string, createdByAgent: boolean): FileRole {
  const rootOrOutside = isRootOrOutside(path);
  if (createdByAgent && rootOrOutside) return 'scratch';
  if (hasScratchName(path) && (createdByAgent || rootOrOutside)) return 'scratch';
  if (isTestPath(path)) return 'test';
  return 'source';
}

const NOTE_EXT = /\.(txt|md|log|patch|diff|out|orig|rej)$/i;
// `backup` anywhere is a backup, so `.backup<digits>` at the end needs no alternative of its own: `backup\d*\d*` split a
// run of digits every way before failing (a name of `.backup` and 16 KiB of digits: 0.13 s).
const BACKUP = /backup|(?:\.(?:bak|orig|old|save|sav|copy)\d*|~)$/i;

/** True for a backup copy name (`f.py.bak`, `f.py.backup2`, `f.orig`). */
export function isBackupPath(path: string): boolean {
  return BACKUP.test(baseName(path));
}

/** True for notes or diff output files (`patch.txt`, `notes.md`, `fix.diff`). */
export function isNotesPath(path: string): boolean {
  return NOTE_EXT.test(baseName(path));
}
