import type { LineRange } from '../types.js';

/** No option takes a value (the default of {@link positionals}: one set, not one per call). */
const NO_VALUE_OPTS: ReadonlySet<string> = new Set();

/** Positional arguments of a command: options dropped, with the values of `valueOpts` options. */
export function positionals(args: string[], valueOpts: ReadonlySet<string> = NO_VALUE_OPTS): string[] {
  const out: string[] = [];
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (optionsDone || a === '-' || !a.startsWith('-')) {
      out.push(a);
      continue;
    }
    if (a === '--') {
      optionsDone = true;
      continue;
    }
    if (valueOpts.has(a)) i++;
  }
  return out;
}

/** `positionals(args, valueOpts)[k]` without building the list: the `k`-th positional argument, if any. */
export function positional(args: readonly string[], k: number, valueOpts: ReadonlySet<string> = NO_VALUE_OPTS): string | undefined {
  let optionsDone = false;
  let seen = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (optionsDone || a === '-' || !a.startsWith('-')) {
      if (seen++ === k) return a;
    } else if (a === '--') optionsDone = true;
    else if (valueOpts.has(a)) i++;
  }
  return undefined;
}

/** True when an argument list holds the flag (`-i`, or a short-flag bundle such as `-ni`). */
export function hasFlag(args: string[], short: string, long?: string): boolean {
  return args.some((a) => {
    if (long !== undefined && (a === long || a.startsWith(`${long}=`))) return true;
    return /^-[A-Za-z]+$/.test(a) && a.includes(short);
  });
}

/** The line range printed by a `sed -n` script such as `10,20p` or `5p`, if it is one. */
export function sedPrintRange(script: string): LineRange | undefined {
  // No two blank runs meet (the blanks before `p` belong to the end of the range, those after `;` to the `;`): adjacent
  // `\s*` split a long run of blanks every way before failing (a 16 KiB script of blanks: 0.12 s).
  const m = /^\s*(\d+)\s*(?:,\s*(\d+|\$)\s*)?p\s*(?:;\s*)?$/.exec(script);
  if (!m) return undefined;
  const start = Number(m[1]);
  if (m[2] === '$') return undefined;
  return [start, m[2] === undefined ? start : Number(m[2])];
}

/** The first line a `sed -i` script addresses (`957s/a/b/`), if it names one. */
export function sedEditLine(script: string): LineRange | undefined {
  const m = /^\s*(\d+)(?:\s*,\s*(\d+))?\s*[sdaic]/.exec(script);
  if (!m) return undefined;
  return [Number(m[1]), Number(m[2] ?? m[1])];
}

/** Line count of `head -n N` / `head -N`, default 10. */
export function headCount(args: string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if ((a === '-n' || a === '--lines') && args[i + 1] !== undefined) return Number.parseInt(args[i + 1] ?? '', 10) || 10;
    const m = /^(?:-n|--lines=)?-?(\d+)$/.exec(a);
    if (m && a.startsWith('-')) return Number(m[1]);
  }
  return 10;
}
