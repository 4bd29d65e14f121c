/**
 * What one line of a command's output can be, from its first characters: the shapes of output-lines.ts's scan and of
 * test-lines.ts's cut of it, written once. Every flag is a necessary condition of its readers' patterns (see
 * output-lines.ts).
 */

/** Shapes of lines, as bits. */
export const LINE = {
  pytest: 1 << 0, // `N passed` (any of its words) or `no tests ran` at column 0, after `=== ` or not; a line ending in `%]`; a colour code first
  unittest: 1 << 1, // `Ran ` at column 0
  tox: 1 << 2, // tox / nox verdict lines
  junit: 1 << 3, // `Tests run: `, `BUILD ` (with or without a `[LEVEL] ` prefix), `N test` at column 0
  js: 1 << 4, // `Tests:` at column 0, `N passing` / `N failing` first (mocha), `# pass` / `# fail`
  go: 1 << 5, // `--- PASS` / `--- FAIL`, `ok ` or `FAIL` + blank at column 0
  cargo: 1 << 6, // `test result: ` or `error` at column 0
  syntax: 1 << 7, // `SyntaxError`, `IndentationError`, `TabError` first; `bash: `, `sh: `, `/bin/` at column 0
  compile: 1 << 8, // `error` at column 0; `path.ext:<digit>` or `path.ext...: error` at a line's first colon; Maven's compiler lines
  trace: 1 << 9, // `Traceback (most recent call last)` first (also after pytest's `INTERNALERROR> `); `Exception in thread`, `thread '` at column 0; an indented `at `
} as const;

/**
 * Not a {@link LINE} flag (never in a scan's result): set beside `pytest` on a line that could start a pytest summary
 * (`N passed...` at column 0, after `=== ` or not), so the scan can say where the first one is ({@link ScanAt}).
 */
export const SUMMARY = 1 << 10;

/** The flags a runner parser needs (runners/*.ts `needs`): what the test readers alone read of a scan (test-lines.ts). */
export const TEST_LINES = LINE.pytest | LINE.unittest | LINE.tox | LINE.junit | LINE.js | LINE.go | LINE.cargo;

export const isDigit = (c: number) => c >= 48 && c <= 57;

/** Whether `text` holds the character `code` at `i` (a read, where `startsWith` would be a call). */
const at = (text: string, i: number, code: number): boolean => text.charCodeAt(i) === code;

/** Words a count is followed by in pytest's summary (`3 passed`), Gradle's (`3 tests completed`) and mocha's (`3 passing`). */
const PYTEST_WORDS = [' passed', ' failed', ' error', ' skipped', ' xfailed', ' xpassed', ' deselected', ' warning', ' rerun', ' subtests '];

/** The flags of a count at `k` (a digit): which summaries could start there. */
export function countShape(text: string, k: number, col0: boolean): number {
  while (isDigit(text.charCodeAt(k))) k++;
  // Every word starts with a space: a count followed by anything else (`12:` of grep -n, `1\t` of cat -n) needs no call.
  if (text.charCodeAt(k) !== 32) return 0;
  if (text.startsWith(' passing', k) || text.startsWith(' failing', k)) return LINE.js;
  if (!col0) return 0;
  if (text.startsWith(' test', k)) return LINE.junit;
  for (const w of PYTEST_WORDS) if (text.startsWith(w, k)) return LINE.pytest | SUMMARY;
  return 0;
}

/**
 * The flags of one line whose first non-blank character, `c`, is at `first` (`end`: the line's end; `col0`: no blank
 * before it), but its progress shape ({@link progressShape}). `errors` false: the test shapes alone ({@link TEST_LINES}
 * and SUMMARY), what the test readers read (test-lines.ts); true: every shape (output-lines.ts).
 */
export function lineShape(text: string, first: number, c: number, end: number, col0: boolean, errors: boolean): number {
  // The second character, tested before each `startsWith` (a call each): most lines that start like a shape are not one.
  // Where it does not tell a shape from common text (`tests/...`, `config`, `# Copyright`), a later one of the shape is
  // tested too (`at`): a `startsWith` the character rules out would return false anyway.
  const d = text.charCodeAt(first + 1);
  let flags = 0;
  if (isDigit(c)) return countShape(text, first, col0);
  switch (c) {
    case 61: {
      // = : pytest's framed summary `==== 1 failed, 2 passed in 0.1s ====`, or `=== no tests ran in ...`
      if (!col0) break;
      let k = first;
      while (text.charCodeAt(k) === 61) k++;
      if (text.charCodeAt(k) === 32) {
        if (isDigit(text.charCodeAt(k + 1))) flags |= countShape(text, k + 1, true) & (LINE.pytest | SUMMARY);
        else if (text.startsWith(' no tests ran', k)) flags |= LINE.pytest;
      }
      break;
    }
    case 27: // ESC: a colour code first (pytest --color=yes); the pytest reader strips them
      flags |= LINE.pytest;
      break;
    case 110: // n
      if (!col0 || d !== 111) break;
      if (text.startsWith('no tests ran', first)) flags |= LINE.pytest;
      if (text.startsWith('nox > ', first)) flags |= LINE.tox;
      break;
    case 82: // R
      if (col0 && d === 97 && text.startsWith('Ran ', first)) flags |= LINE.unittest;
      break;
    case 69: // E
      if (col0 && d === 82 && text.startsWith('ERROR:', first) && text.slice(first, end).includes(': commands failed')) flags |= LINE.tox;
      if (errors && col0 && d === 120 && text.startsWith('Exception in thread', first)) flags |= LINE.trace;
      break;
    case 84: // T
      if (errors && d === 114 && text.startsWith('Traceback (most recent call last)', first)) flags |= LINE.trace;
      if (errors && d === 97 && text.startsWith('TabError', first)) flags |= LINE.syntax;
      if (col0 && d === 101 && at(text, first + 4, 115 /* s */)) {
        if (text.startsWith('Tests run: ', first)) flags |= LINE.junit;
        if (text.startsWith('Tests:', first)) flags |= LINE.js;
      }
      break;
    case 83: // S
      if (errors && text.startsWith('SyntaxError', first)) flags |= LINE.syntax;
      break;
    case 73: // I
      if (errors && d === 110 && text.startsWith('IndentationError', first)) flags |= LINE.syntax;
      if (errors && d === 78 && text.startsWith('INTERNALERROR> Traceback (most recent call last)', first)) flags |= LINE.trace; // pytest's own crash
      break;
    case 98: // b
    case 115: // s
    case 47: // /
      // Only the one that starts with c can match (`/testbed/...` lines: none).
      if (errors && col0 && (c === 98 ? text.startsWith('bash: ', first) : c === 115 ? d === 104 && text.startsWith('sh: ', first) : d === 98 && text.startsWith('/bin/', first))) flags |= LINE.syntax;
      break;
    case 91: {
      // [ : Maven's `[LEVEL] ...`
      if (!col0) break;
      const line = text.slice(first, end);
      if (line.includes('] Tests run: ') || line.includes('] BUILD ')) flags |= LINE.junit;
      if (errors && (line.includes('COMPILATION ERROR') || line.includes('.java:['))) flags |= LINE.compile;
      break;
    }
    case 66: // B
      if (col0 && text.startsWith('BUILD ', first)) flags |= LINE.junit;
      break;
    case 35: // #
      if (col0 && d === 32 && ((at(text, first + 2, 112 /* p */) && text.startsWith('# pass', first)) || (at(text, first + 2, 102 /* f */) && text.startsWith('# fail', first)))) flags |= LINE.js;
      break;
    case 45: // -
      if (d === 45 && ((at(text, first + 4, 80 /* P */) && text.startsWith('--- PASS', first)) || (at(text, first + 4, 70 /* F */) && text.startsWith('--- FAIL', first)))) flags |= LINE.go;
      break;
    case 111: // o
      if (col0 && d === 107 && (text.startsWith('ok ', first) || text.startsWith('ok\t', first))) flags |= LINE.go;
      break;
    case 70: // F
      if (col0 && d === 65 && (text.startsWith('FAIL\t', first) || text.startsWith('FAIL ', first))) flags |= LINE.go;
      break;
    case 116: // t
      if (col0 && d === 101 && at(text, first + 4, 32) && text.startsWith('test result: ', first)) flags |= LINE.cargo;
      if (errors && col0 && d === 104 && text.startsWith("thread '", first)) flags |= LINE.trace;
      break;
    case 101: // e
      if (col0 && d === 114 && text.startsWith('error', first)) flags |= errors ? LINE.cargo | LINE.compile : LINE.cargo;
      if (d === 118 && text.startsWith('evaluation failed :(', first)) flags |= LINE.tox;
      break;
    case 99: // c
      if (d === 111 && at(text, first + 3, 103 /* g */) && text.startsWith('congratulations :)', first)) flags |= LINE.tox;
      break;
    case 97: // a
      if (errors && !col0 && d === 116 && text.startsWith('at ', first)) flags |= LINE.trace;
      break;
  }
  return flags;
}

/** pytest's progress lines end in `[ 40%]`. Each character read once (a `charCodeAt` costs a few ns here, on every line). */
export function progressShape(text: string, first: number, end: number): number {
  let e = end;
  let z = text.charCodeAt(e - 1);
  while (e > first && (z === 32 || z === 13)) z = text.charCodeAt(--e - 1);
  return e - first >= 2 && z === 93 && text.charCodeAt(e - 2) === 37 ? LINE.pytest : 0;
}

/**
 * The first characters {@link lineShape} has a case for, at column 0 (index c) and after blanks (index 128 + c): a
 * line that starts with any other character (or, indented, with one whose cases all need column 0) has no flags
 * there and skips the call; about half the lines of real output. `SHAPED` for every shape, `TEST_SHAPED` for the
 * test shapes alone (without the syntax and trace cases `S`, `I`, `b`, `s`, `/`, and `T`, `a` after blanks).
 */
export const SHAPED = new Uint8Array(256);
for (const c of '0123456789=\x1bnRETSIbs/[B#-oFtec') SHAPED[c.charCodeAt(0)] = 1;
for (const c of '0123456789\x1bTSI-eca') SHAPED[128 + c.charCodeAt(0)] = 1;
export const TEST_SHAPED = new Uint8Array(256);
for (const c of '0123456789=\x1bnRET[B#-oFtec') TEST_SHAPED[c.charCodeAt(0)] = 1;
for (const c of '0123456789\x1b-ec') TEST_SHAPED[128 + c.charCodeAt(0)] = 1;

/**
 * A tox environment's verdict at an indented line's first colon (`  py39: commands succeeded`). The character after
 * `: ` picks the one verdict that can follow: most indented `: ` are a type hint or a dict entry, which then cost no call.
 */
export function toxColon(text: string, colon: number): boolean {
  if (text.charCodeAt(colon + 1) !== 32) return false;
  switch (text.charCodeAt(colon + 2)) {
    case 99: // c
      return text.startsWith(': commands ', colon);
    case 79: // O
      return text.startsWith(': OK (', colon);
    case 70: // F
      return text.startsWith(': FAIL code', colon);
    default:
      return false;
  }
}
