/**
 * Tracebacks, compiler and syntax errors in a command's output, and the files they
 * name (issue 26). Read only from terminal output (a file view may quote anything).
 */

export type ErrorKind = 'traceback' | 'syntax' | 'compile';

const SYNTAX = /^\s*(?:SyntaxError|IndentationError|TabError)\b|^(?:bash|sh|\/bin\/\w+): [^\n]*syntax error/m;
const COMPILE = [
  /^error(?:\[E\d+\])?: (?!test failed)/m, // rustc / cargo
  /\.java:\d+: error: |^\[ERROR\] COMPILATION ERROR|\[ERROR\] [^\n]*\.java:\[\d+,\d+\]/m, // javac, Maven
  /^[\w./-]+\.go:\d+:\d+: /m, // go build / go vet
  /: error TS\d+: |\(\d+,\d+\): error TS\d+:/, // tsc
  /^[\w./-]+\.(?:c|cc|cpp|cxx|h|hpp):\d+:\d+: (?:fatal )?error: /m, // gcc / clang
];
const TRACEBACK = [
  /Traceback \(most recent call last\)/, // Python
  /^Exception in thread "|^\s+at [\w$.<>]+\([\w$]+\.java:\d+\)/m, // Java
  /^thread '[^'\n]*'(?: \(\d+\))? panicked at /m, // Rust
  /^\w*(?:Error|Exception)(?: \[\w+\])?: [^\n]*\n\s+at /m, // Node
];

/** The most specific error in `text`: a syntax error, else a compiler error, else a traceback; null when none. */
export function errorKind(text: string): ErrorKind | null {
  if (SYNTAX.test(text)) return 'syntax';
  if (COMPILE.some((re) => re.test(text))) return 'compile';
  if (TRACEBACK.some((re) => re.test(text))) return 'traceback';
  return null;
}

/** At most this many file names are taken from one observation (a deep recursion repeats the same frames). */
export const MAX_TRACE_PATHS = 32;

const PATHS = [
  /File "([^"\n]+)", line \d+/g, // Python frames
  /\(([\w$]+\.java):\d+\)/g, // Java frames (file name only)
  /^\s*(?:--> )?([\w./-]+\.\w+):\d+:\d+\b/gm, // compilers (rustc's ` --> `, go, gcc, tsc)
  /\(([^()\s]+\.[cm]?[jt]sx?):\d+:\d+\)/g, // Node frames
  / at ([\w./-]+\.rs):\d+:\d+/g, // Rust panics
];

/** Distinct file names in an error's frames and messages, in order of appearance (at most {@link MAX_TRACE_PATHS}), without a leading `./`. */
export function tracePaths(text: string): string[] {
  const out = new Set<string>();
  for (const re of PATHS) {
    for (const m of text.matchAll(re)) {
      if (out.size >= MAX_TRACE_PATHS) return [...out];
      out.add(m[1]!.replace(/^\.\//, ''));
    }
  }
  return [...out];
}
