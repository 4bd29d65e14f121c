/**
 * Files a Python snippet reads and writes, for agents that edit source files
 * through scripts (`python - <<EOF`, `python -c`, `cat > fix.py <<EOF ... python fix.py`).
 * This scans Python text, not shell: `open(P, mode)`, `Path(P).write_text(...)`,
 * `io.open`/`codecs.open`, with `P` a string literal or a variable assigned one.
 */
import { flatten } from '../memory/flat-string.js';
import { sampledTextKey } from '../memory/packed-text.js';
import { assignedLiterals } from './python-assigns.js';

/** The files a Python snippet opens for writing and for reading, as written in the code. */
export interface PythonFileUse {
  readonly writes: readonly string[];
  readonly reads: readonly string[];
}

const STR = String.raw`[rRuUbBfF]{0,2}(?:'([^'\\\n]*)'|"([^"\\\n]*)")`;
const OPEN = new RegExp(String.raw`(?<![\w.])(?:io\.|codecs\.)?open\(\s*(?:${STR}|([A-Za-z_]\w*))\s*(?:,\s*(?:mode\s*=\s*)?${STR})?`, 'g');
// A variable is tried from the start of its run of word characters only (`(?<!\w)`, past any leading digits as
// before): tried from every character of a long run (a hex literal), `\w*` made the scan quadratic (32 K: 4 s).
const PATH_METHOD = new RegExp(String.raw`(?:(?:pathlib\.)?Path\(\s*${STR}\s*\)|(?<!\w)\d*([A-Za-z_]\w*))\.(write_text|write_bytes|read_text|read_bytes)\(`, 'g');

function literal(m: RegExpExecArray, i: number): string | undefined {
  return m[i] ?? m[i + 1];
}

function plausiblePath(p: string): boolean {
  return p.length > 0 && p.length < 300 && !/\s/.test(p) && (p.includes('/') || /\.\w+$/.test(p) || /^[A-Z][A-Z_]+$/.test(p));
}

const NONE: PythonFileUse = Object.freeze({ writes: Object.freeze([]), reads: Object.freeze([]) });

/** A file a snippet opens: its path as written, or the variable that holds it. */
interface FileRef {
  readonly path: string | undefined;
  readonly variable: string | undefined;
  readonly write: boolean;
}

/**
 * What {@link pythonFileUse} reads in one text, in text order: its path assignments and the files it opens. The
 * labeler keeps this for each file the agent wrote instead of the file's text (a fifth of a session's memory when
 * sessions share no text), and a later `python file` run is scanned from it.
 */
export interface PythonScan {
  /** Path assignments, each as a variable name then its value. */
  readonly assigns: readonly string[];
  /** `open(...)` calls, in order. */
  readonly opens: readonly FileRef[];
  /** `Path(...).write_text(...)` and the like, in order. */
  readonly methods: readonly FileRef[];
}

export const EMPTY_SCAN: PythonScan = Object.freeze({ assigns: Object.freeze([]), opens: Object.freeze([]), methods: Object.freeze([]) });

/**
 * The last text scanned and its scan: one step often scans its command twice or more (a line that writes a
 * script and runs Python reads it for {@link pythonFileUse} and again for each `.py` file it writes), and a scan
 * depends on the text only. One entry: only the current step's text is kept alive by it.
 */
let lastText: string | undefined;
let lastScan: PythonScan = EMPTY_SCAN;

/**
 * Scans of long texts across sessions: the rollouts of one task (a GRPO group, a client that retries, the server
 * benches' replays) write the same scripts, and each session scanned each one again (the scan was 13 % of the state
 * builder's time in session-cost's profile; bench/README.md, "Lifecycle CPU per step, third pass"). Found by the
 * text's sampled key and one comparison (no hash of the whole text); a scan depends on the text only, and no caller
 * changes one. Shorter texts scan about as fast as they are looked up. Two generations (as same-text.ts): an
 * approximate LRU, bounded in entries and in the characters of the texts it keeps alive to compare with. Only
 * commands and code cells are memoised: the state builder pools those already (same-text.ts), so the memo keeps
 * the strings that pool keeps rather than texts of its own; an edit's text is scanned as before. A miss costs the
 * sampled key and the bookkeeping, ~0.3-0.5 µs on a text of ~1,700 characters whose scan takes ~3.8.
 */
export const SCAN_MEMO_MIN_CHARS = 128;
export const SCAN_MEMO_MAX_CHARS = 16_383;
export const SCAN_MEMO_ENTRIES = 1024;
export const SCAN_MEMO_CHARS = 500_000;

interface Scanned {
  readonly text: string;
  readonly scan: PythonScan;
}

let young = new Map<number, Scanned>();
let old = new Map<number, Scanned>();
let youngChars = 0;

function keep(key: number, entry: Scanned): void {
  if (young.get(key)?.text !== entry.text) youngChars += entry.text.length;
  young.set(key, entry);
  if (young.size >= SCAN_MEMO_ENTRIES / 2 || youngChars >= SCAN_MEMO_CHARS / 2) {
    old = young;
    young = new Map();
    youngChars = 0;
  }
}

/** {@link scanText} of `code`, from the memo when a text equal to it was scanned recently. */
function memoScan(code: string): PythonScan {
  if (code.length < SCAN_MEMO_MIN_CHARS || code.length > SCAN_MEMO_MAX_CHARS) return scanText(code);
  const key = sampledTextKey(code) % 2 ** 30;
  const y = young.get(key);
  if (y?.text === code) return y.scan;
  const o = old.get(key);
  if (o?.text === code) {
    keep(key, o);
    return o.scan;
  }
  const scan = scanText(code);
  keep(key, { text: code, scan });
  return scan;
}

/** Texts and characters the memo holds (tests). */
export function scanMemoSize(): { entries: number; chars: number } {
  let chars = 0;
  for (const e of young.values()) chars += e.text.length;
  for (const e of old.values()) chars += e.text.length;
  return { entries: young.size + old.size, chars };
}

/** The scan of one text (see {@link PythonScan}); `command`: a shell command or code cell (memoised across sessions). */
export function pythonScan(code: string, command = false): PythonScan {
  if (code === lastText) return lastScan;
  const scan = command ? memoScan(code) : scanText(code);
  lastText = code;
  lastScan = scan;
  return scan;
}

function scanText(code: string): PythonScan {
  // Matches are slices of the scanned text: copied (`flatten`), so that a kept scan does not keep the text alive.
  const assigns: string[] = [];
  const found = assignedLiterals(code);
  for (let i = 0; i < found.length; i += 2) if (plausiblePath(found[i + 1]!)) assigns.push(flatten(found[i]!), flatten(found[i + 1]!));
  const opens: FileRef[] = [];
  if (code.includes('open('))
    for (let m = OPEN.exec(code); m; m = OPEN.exec(code)) {
      const ref = fileRef(literal(m, 1), m[3], /[wax+]/.test(literal(m, 4) ?? 'r'));
      if (ref !== undefined) opens.push(ref);
    }
  const methods: FileRef[] = [];
  if (code.includes('_text(') || code.includes('_bytes('))
    for (let m = PATH_METHOD.exec(code); m; m = PATH_METHOD.exec(code)) {
      const ref = fileRef(literal(m, 1), m[3], (m[4] ?? '').startsWith('write'));
      if (ref !== undefined) methods.push(ref);
    }
  return assigns.length + opens.length + methods.length === 0 ? EMPTY_SCAN : { assigns, opens, methods };
}

/** A path written out that is not a plausible path opens nothing (its variable is not looked at either). */
function fileRef(path: string | undefined, variable: string | undefined, write: boolean): FileRef | undefined {
  if (path !== undefined) return plausiblePath(path) ? { path: flatten(path), variable: undefined, write } : undefined;
  return variable === undefined ? undefined : { path: undefined, variable: flatten(variable), write };
}

/**
 * The files that texts joined by newlines open, from their scans: {@link pythonFileUse} of the joined text (a
 * variable names the path it was last assigned anywhere in them), unless one match would span two texts.
 */
export function fileUseOfScans(scans: readonly PythonScan[]): PythonFileUse {
  // Scans that open no file (most runs of a script the agent wrote): the shared empty use, no maps nor sets.
  let opensAny = false;
  for (let i = 0; i < scans.length && !opensAny; i++) opensAny = scans[i]!.opens.length + scans[i]!.methods.length > 0;
  if (!opensAny) return NONE;
  const vars = new Map<string, string>();
  for (const s of scans) for (let i = 0; i < s.assigns.length; i += 2) vars.set(s.assigns[i]!, s.assigns[i + 1]!);
  const writes = new Set<string>();
  const reads = new Set<string>();
  const add = (r: FileRef) => {
    const path = r.path ?? vars.get(r.variable!);
    if (path === undefined || !plausiblePath(path)) return;
    (r.write ? writes : reads).add(path);
  };
  for (const s of scans) for (const r of s.opens) add(r);
  for (const s of scans) for (const r of s.methods) add(r);
  return Object.freeze({ writes: Object.freeze([...writes]), reads: Object.freeze([...reads]) });
}

/** Texts scanned, kept (least recently used go first), and the longest text kept: agents rerun the same scripts and heredocs. */
export const SCAN_CACHE_ENTRIES = 1024;
export const SCAN_CACHE_MAX_CHARS = 16_384;
const scanned = new Map<string, PythonFileUse>();

/**
 * Scans Python source text for files it opens; unknown variables and f-strings are skipped.
 * Memoised per text (pure: the result depends on the text only); the result is shared and frozen.
 */
export function pythonFileUse(code: string): PythonFileUse {
  // Every match of OPEN contains `open(`, every match of PATH_METHOD `_text(` or `_bytes(`: without them, nothing to scan.
  if (!code.includes('open(') && !code.includes('_text(') && !code.includes('_bytes(')) return NONE;
  if (code.length > SCAN_CACHE_MAX_CHARS) return scanPythonFileUse(code);
  let use = scanned.get(code);
  if (use !== undefined) {
    scanned.delete(code);
  } else {
    use = scanPythonFileUse(code);
    if (scanned.size >= SCAN_CACHE_ENTRIES) scanned.delete(scanned.keys().next().value!);
  }
  scanned.set(code, use);
  return use;
}

/** {@link pythonFileUse} without the memo (tests compare both). */
export function scanPythonFileUse(code: string): PythonFileUse {
  return fileUseOfScans([pythonScan(code)]);
}
