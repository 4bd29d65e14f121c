/** POSIX-style word splitting (quotes and backslashes), for command lines rendered with `shlex.quote`. */

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
        cur += line[i];
        i++;
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
      cur += c;
      inWord = true;
      i++;
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
      args[key] =
        key === 'view_range'
          ? value
              .replace(/[[\]]/g, '')
              .split(/[\s,]+/)
              .filter(Boolean)
              .map(Number)
          : /^-?\d+$/.test(value) && key.endsWith('line')
            ? Number(value)
            : value;
    } else if (p < positional.length) {
      args[positional[p++]!] = w;
    }
  }
  return args;
}
