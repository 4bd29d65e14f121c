/**
 * Files a Python snippet reads and writes, for agents that edit source files
 * through scripts (`python - <<EOF`, `python -c`, `cat > fix.py <<EOF ... python fix.py`).
 * This scans Python text, not shell: `open(P, mode)`, `Path(P).write_text(...)`,
 * `io.open`/`codecs.open`, with `P` a string literal or a variable assigned one.
 */
import { flatten } from '../memory/flat-string.js';
import { assignedLiterals } from './python-assigns.js';
import { exact } from '../memory/small-arrays.js';

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

/** The scan of one text (see {@link PythonScan}). */
export function pythonScan(code: string): PythonScan {
  if (code === lastText) return lastScan;
  const scan = scanText(code);
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
  // Kept for each script the agent wrote (labeler history): arrays of exact size (memory/small-arrays.ts).
  return assigns.length + opens.length + methods.length === 0 ? EMPTY_SCAN : { assigns: exact(assigns), opens: exact(opens), methods: exact(methods) };
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
