/**
 * Files a Python snippet reads and writes, for agents that edit source files
 * through scripts (`python - <<EOF`, `python -c`, `cat > fix.py <<EOF ... python fix.py`).
 * This scans Python text, not shell: `open(P, mode)`, `Path(P).write_text(...)`,
 * `io.open`/`codecs.open`, with `P` a string literal or a variable assigned one.
 */

/** The files a Python snippet opens for writing and for reading, as written in the code. */
export interface PythonFileUse {
  readonly writes: readonly string[];
  readonly reads: readonly string[];
}

const STR = String.raw`[rRuUbBfF]{0,2}(?:'([^'\\\n]*)'|"([^"\\\n]*)")`;
const ASSIGN = new RegExp(String.raw`(?:^|[\s;(,])([A-Za-z_]\w*)\s*=\s*(?:(?:pathlib\.)?Path\(\s*)?${STR}`, 'g');
const OPEN = new RegExp(String.raw`(?<![\w.])(?:io\.|codecs\.)?open\(\s*(?:${STR}|([A-Za-z_]\w*))\s*(?:,\s*(?:mode\s*=\s*)?${STR})?`, 'g');
const PATH_METHOD = new RegExp(String.raw`(?:(?:pathlib\.)?Path\(\s*${STR}\s*\)|([A-Za-z_]\w*))\.(write_text|write_bytes|read_text|read_bytes)\(`, 'g');

function literal(m: RegExpExecArray, i: number): string | undefined {
  return m[i] ?? m[i + 1];
}

function plausiblePath(p: string): boolean {
  return p.length > 0 && p.length < 300 && !/\s/.test(p) && (p.includes('/') || /\.\w+$/.test(p) || /^[A-Z][A-Z_]+$/.test(p));
}

const NONE: PythonFileUse = Object.freeze({ writes: Object.freeze([]), reads: Object.freeze([]) });

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
  const opens = code.includes('open(');
  const methods = code.includes('_text(') || code.includes('_bytes(');
  const vars = new Map<string, string>();
  for (let m = ASSIGN.exec(code); m; m = ASSIGN.exec(code)) {
    const value = literal(m, 2);
    if (m[1] !== undefined && value !== undefined && plausiblePath(value)) vars.set(m[1], value);
  }
  const writes = new Set<string>();
  const reads = new Set<string>();
  const add = (path: string | undefined, write: boolean) => {
    if (path === undefined || !plausiblePath(path)) return;
    (write ? writes : reads).add(path);
  };
  if (opens)
    for (let m = OPEN.exec(code); m; m = OPEN.exec(code)) {
      const path = literal(m, 1) ?? (m[3] === undefined ? undefined : vars.get(m[3]));
      const mode = literal(m, 4) ?? 'r';
      add(path, /[wax+]/.test(mode));
    }
  if (methods)
    for (let m = PATH_METHOD.exec(code); m; m = PATH_METHOD.exec(code)) {
      const path = literal(m, 1) ?? (m[3] === undefined ? undefined : vars.get(m[3]));
      add(path, (m[4] ?? '').startsWith('write'));
    }
  return Object.freeze({ writes: Object.freeze([...writes]), reads: Object.freeze([...reads]) });
}
