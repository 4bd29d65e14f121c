/**
 * Tracebacks, compiler and syntax errors in a command's output, and the files they
 * name (issue 26). Read only from terminal output (a file view may quote anything).
 * Every pattern is line-anchored and runs only when {@link scanOutput} saw a line of
 * its shape; patterns that must find a file name before a colon also need a plain-text
 * guard (they backtrack on every line of long output).
 */
import { LINE } from './line-shapes.js';
import { scanOutput } from './output-lines.js';

export type ErrorKind = 'traceback' | 'syntax' | 'compile';

export interface Pattern {
  guards: readonly string[];
  re: RegExp;
}
const guarded = (text: string, p: Pattern) => p.guards.some((g) => text.includes(g)) && p.re.test(text);

/*
 * `^` of a multiline pattern also matches after `\r`, U+2028 and U+2029, which `[^\n]` and `[^:\n]` step over: a
 * pattern that scans from a line start to a newline or colon rescanned a run of such "lines" from each of them (16 KiB
 * of `\r` after a javac or tsc line: 0.15-0.3 s; of `bash: \r` or `[ERROR] \r`: 40-70 ms). Only `test` is asked of
 * these patterns, so each scan starts where an earlier line start could not have found the same text:
 * - a file name before a colon (`[^:\n]+\.java:`) from the first line start after a newline or colon: after a newline
 *   (`(?<![^\n])`), or after a `\r`, U+2028 or U+2029 whose line holds a colon (the lookbehind reads that line only);
 *   a later line start with no colon between would find the same colon, with less before it.
 * - a prefix then any text to the newline (`[ERROR] [^\n]*...`) stops before the next line that starts with the same
 *   prefix, where the next scan takes over (what it looks for cannot hold a line end or overlap the prefix). So does
 *   Node's `Error: ...` line before an indented `at ` (TRACEBACK below: 16 KiB of `Error: \r` 32 ms, 64 KiB 0.6 s),
 *   whose next scan reaches the same newline.
 */
export const SYNTAX: readonly RegExp[] = [
  /^[ \t]*(?:SyntaxError|IndentationError|TabError)\b/m,
  /^(?:bash|sh|\/bin\/\w+): [^\n\r\u2028\u2029]*(?:[\r\u2028\u2029](?!(?:bash|sh|\/bin\/\w+): )[^\n\r\u2028\u2029]*)*syntax error/m,
];
export const COMPILE: readonly Pattern[] = [
  { guards: ['error'], re: /^error(?:\[E\d+\])?: (?!test failed)/m }, // rustc / cargo
  {
    guards: ['.java:'],
    re: /(?:(?<![^\n])|(?<=:[^\n\r\u2028\u2029:]*[\r\u2028\u2029]))[^:\n]+\.java:\d+: error: |^\[ERROR\] [^\n\r\u2028\u2029]*(?:[\r\u2028\u2029](?!\[ERROR\] )[^\n\r\u2028\u2029]*)*\.java:\[\d+,\d+\]/m,
  }, // javac, Maven
  { guards: ['COMPILATION ERROR'], re: /^\[ERROR\] COMPILATION ERROR/m }, // Maven
  { guards: ['.go:'], re: /^[\w./-]+\.go:\d+:\d+: /m }, // go build / go vet
  { guards: [': error TS'], re: /(?:(?<![^\n])|(?<=:[^\n\r\u2028\u2029:]*[\r\u2028\u2029]))[^:\n]+(?:\(\d+,\d+\))?: error TS\d+:/ }, // tsc
  { guards: ['.c:', '.cc:', '.cpp:', '.cxx:', '.h:', '.hpp:'], re: /^[\w./-]+\.(?:c|cc|cpp|cxx|h|hpp):\d+:\d+: (?:fatal )?error: /m }, // gcc / clang
];
export const TRACEBACK: readonly RegExp[] = [
  /^[ \t]*(?:INTERNALERROR> )?Traceback \(most recent call last\)/m, // Python (and pytest's own crash)
  /^Exception in thread "|^[ \t]+at [\w$.<>]+\([\w$]+\.java:\d+\)/m, // Java
  /^thread '[^'\n]*'(?: \(\d+\))? panicked at /m, // Rust
  /^\w*(?:Error|Exception)(?: \[\w+\])?: [^\n\r\u2028\u2029]*(?:[\r\u2028\u2029](?!\w*(?:Error|Exception)(?: \[\w+\])?: )[^\n\r\u2028\u2029]*)*\n[ \t]+at /m, // Node
];

/** The most specific error in `text`: a syntax error, else a compiler error, else a traceback; null when none (`mask`: its {@link scanOutput}, when already computed). */
export function errorKind(text: string, mask = scanOutput(text)): ErrorKind | null {
  if (mask & LINE.syntax && SYNTAX.some((re) => re.test(text))) return 'syntax';
  if (mask & LINE.compile && COMPILE.some((p) => guarded(text, p))) return 'compile';
  if (mask & LINE.trace && TRACEBACK.some((re) => re.test(text))) return 'traceback';
  return null;
}

/** At most this many file names are taken from one observation (a deep recursion repeats the same frames). */
export const MAX_TRACE_PATHS = 32;

/** Where errors name files (the compilers' pattern only for compiler errors). */
const PATHS: ReadonlyArray<Pattern & { compileOnly?: boolean; guard?: RegExp }> = [
  { guards: ['File "'], re: /File "([^"\n]+)", line \d+/g }, // Python frames
  { guards: ['.java:'], re: /\(([\w$]+\.java):\d+\)/g }, // Java frames (file name only)
  { guards: [':'], compileOnly: true, re: /^[ \t]*(?:--> )?([\w./-]+\.\w+):\d+:\d+\b/gm }, // compilers (rustc's ` --> `, go, gcc, tsc)
  { guards: [], guard: /\.(?:[cm]?[jt]s|[jt]sx):/, re: /\(([^()\s]+\.[cm]?[jt]sx?):\d+:\d+\)/g }, // Node frames (`.js:`, `.mjs:`, `.cjs:`, `.jsx:` and the same of `ts`: one pass, not eight)
  { guards: ['.rs:'], re: / at ([\w./-]+\.rs):\d+:\d+/g }, // Rust panics
];

/** Distinct file names in the frames and messages of an error of `kind` (pattern by pattern, each in order of appearance; at most {@link MAX_TRACE_PATHS}), without a leading `./`. */
export function tracePaths(text: string, kind: ErrorKind): string[] {
  const out = new Set<string>();
  for (const p of PATHS) {
    if ((p.compileOnly === true && kind !== 'compile') || !(p.guard !== undefined ? p.guard.test(text) : p.guards.some((g) => text.includes(g)))) continue;
    // `exec` on the pattern itself (global, restarted at 0) rather than `matchAll`, which copies the pattern each call.
    const re = p.re;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (out.size >= MAX_TRACE_PATHS) return [...out];
      const path = m[1]!;
      out.add(path.startsWith('./') ? path.slice(2) : path);
    }
  }
  return [...out];
}
