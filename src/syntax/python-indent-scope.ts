/**
 * The scope of a line range in Python source found from indentation alone, in time linear in the text up
 * to the range: the fallback for files too large to hand to tree-sitter (python-scope.ts). It agrees with
 * the parse tree on ordinary code; it can be misled by multi-line strings or bracketed lines that start
 * left of the code around them.
 */

const DEFINITION = /^(?:async\s+)?(?:def|class)\s+([A-Za-z_][A-Za-z0-9_]*)/;

/** Columns of leading whitespace (a tab goes to the next multiple of 8, as Python counts it). */
function indentOf(line: string): number {
  let col = 0;
  for (const ch of line) {
    if (ch === ' ') col++;
    else if (ch === '\t') col = col - (col % 8) + 8;
    else if (ch === '\f') col = 0;
    else break;
  }
  return col;
}

/** True for a line that holds code (not blank, not only a comment). */
function isCode(line: string): boolean {
  const t = line.trim();
  return t !== '' && !t.startsWith('#');
}

/**
 * For each line, whether a statement may start on it: false for lines that begin inside a string
 * (docstrings quote code), inside brackets, or after a backslash continuation. A small tokenizer
 * over the whole text: comments, quotes (single, triple, escapes) and bracket depth.
 */
function statementStarts(lines: string[]): boolean[] {
  const out: boolean[] = [];
  let quote = '';
  let depth = 0;
  let continued = false;
  for (const line of lines) {
    out.push(quote === '' && depth === 0 && !continued);
    continued = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quote !== '') {
        if (ch === '\\') i++;
        else if (line.startsWith(quote, i)) {
          i += quote.length - 1;
          quote = '';
        }
        continue;
      }
      if (ch === '#') break;
      if (ch === '"' || ch === "'") {
        quote = line.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
        i += quote.length - 1;
      } else if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if ((ch === ')' || ch === ']' || ch === '}') && depth > 0) depth--;
    }
    if (quote.length === 1) quote = '';
    if (quote === '' && line.endsWith('\\')) continued = true;
  }
  return out;
}

/**
 * Innermost class/function containing 0-based rows [lo, hi] as a dotted name (`<module>` when none),
 * like python-scope.ts's tree walk: a definition spans from its `def`/`class` line to its last code line
 * (the last before code at its indentation or left of it).
 */
export function indentScope(text: string, lo: number, hi: number): string {
  const lines = text.split('\n');
  if (lo >= lines.length) return '<module>';
  const starts = statementStarts(lines);
  const code = (r: number): boolean => starts[r] === true && isCode(lines[r]!);
  const candidates: Array<{ indent: number; name: string; row: number }> = [];
  let limit = Number.POSITIVE_INFINITY;
  for (let r = lo; r >= 0 && limit > 0; r--) {
    if (!code(r)) continue;
    const line = lines[r]!;
    const indent = indentOf(line);
    if (r !== lo && indent >= limit) continue;
    const def = DEFINITION.exec(line.slice(line.length - line.trimStart().length));
    if (def?.[1] !== undefined) candidates.push({ indent, name: def[1], row: r });
    limit = indent;
  }
  // The first code line at or after `hi`: a definition reaching it (or being it) reaches `hi`.
  let next = hi;
  while (next < lines.length && !code(next)) next++;
  const names: string[] = [];
  for (const c of candidates.reverse()) {
    if (!reaches(lines, code, c, lo, hi, next)) break;
    names.push(c.name);
  }
  return names.length > 0 ? names.join('.') : '<module>';
}

/** True when definition `c` holds rows [lo, hi]: no code left of its body before `hi`, and it lasts to `hi`. */
function reaches(lines: string[], code: (r: number) => boolean, c: { indent: number; row: number }, lo: number, hi: number, next: number): boolean {
  for (let r = Math.max(lo, c.row + 1); r < hi && r < lines.length; r++) {
    if (code(r) && indentOf(lines[r]!) <= c.indent) return false;
  }
  // `hi` continues a statement (inside brackets or a string) that the checks above place inside `c`.
  if (hi < lines.length && !code(hi) && isCode(lines[hi]!)) return true;
  if (next >= lines.length) return false;
  return next === c.row || indentOf(lines[next]!) > c.indent;
}
