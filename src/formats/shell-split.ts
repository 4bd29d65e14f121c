/** POSIX-style word splitting (quotes and backslashes), for command lines rendered with `shlex.quote`. */

/** What ends a run of characters copied as they are: outside quotes, a quote, a backslash or a blank; inside `"`, `"` or a backslash. */
const PLAIN = (c: number) => c !== 39 && c !== 34 && c !== 92 && c !== 32 && c !== 9 && c !== 10;
const IN_DOUBLE_QUOTES = (c: number) => c !== 34 && c !== 92;

/** How many characters from `from` on `keep` accepts. */
function runLength(line: string, from: number, keep: (c: number) => boolean): number {
  let j = from;
  while (j < line.length && keep(line.charCodeAt(j))) j++;
  return j - from;
}

/** Splits a command line into words; an unterminated quote ends at the end of the text. */
export function shellSplit(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      cur += end < 0 ? line.slice(i + 1) : line.slice(i + 1, end);
      i = end < 0 ? line.length : end + 1;
      inWord = true;
    } else if (c === '"') {
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === '\\' && i + 1 < line.length && '"\\$`\n'.includes(line[i + 1]!)) i++;
        // The run up to the next quote or backslash is taken as one slice (see the plain run below).
        const j = i + 1 + runLength(line, i + 1, IN_DOUBLE_QUOTES);
        cur += line.slice(i, j);
        i = j;
      }
      i++;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      cur += line[i + 1];
      i += 2;
      inWord = true;
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      i++;
    } else {
      // A run of plain characters is one slice: appended a character at a time, a 1 MiB action line took 0.32 s.
      const j = i + 1 + runLength(line, i + 1, PLAIN);
      cur += line.slice(i, j);
      inWord = true;
      i = j;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

/**
 * Arguments of a rendered SWE-agent tool line, `tool sub positional... --flag value ...`:
 * positionals map onto `positional` names in order, `--flag value` onto `flag`.
 */
export function renderedToolArgs(line: string, positional: readonly string[]): Record<string, unknown> {
  const words = shellSplit(line).slice(1);
  const args: Record<string, unknown> = {};
  let p = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('--') && i + 1 < words.length) {
      const key = w.slice(2);
      const value = words[++i]!;
      setArg(
        args,
        key,
        key === 'view_range'
          ? value
              .replace(/[[\]]/g, '')
              .split(/[\s,]+/)
              .filter(Boolean)
              .map(Number)
          : /^-?\d+$/.test(value) && key.endsWith('line')
            ? Number(value)
            : value,
      );
    } else if (p < positional.length) {
      setArg(args, positional[p++]!, w);
    }
  }
  return args;
}

/** An own property whatever the key: `args['__proto__'] = value` would set the prototype (a string: ignored) and
 *  drop the argument the log shows. */
function setArg(args: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
}
