/**
 * The scope of a line range in Python source found from indentation alone, over an index of the text built in one
 * pass (python-indent-index.ts): the fallback for files too large to hand to tree-sitter (python-scope.ts), and,
 * through {@link plainIndentScope}, the answer wherever the text around the range is plain enough that it is the
 * tree's. It can be misled by multi-line strings or bracketed lines that start left of the code around them.
 */
import { CODE, COMMENT, START, indexPython, type IndentIndex } from './python-indent-index.js';

export { indexPython, type IndentIndex } from './python-indent-index.js';

/** A `def`/`class` (maybe `async`) at a line's first non-blank character; sticky, and never across a line. */
const DEFINITION = /(?:async[^\S\n]+)?(?:def|class)[^\S\n]+([A-Za-z_][A-Za-z0-9_]*)/y;

interface Candidate {
  indent: number;
  name: string;
  row: number;
}

/** True for a line that holds code and begins a statement. */
function code(ix: IndentIndex, r: number): boolean {
  return (ix.flags[r]! & (START | CODE)) === (START | CODE);
}

/** The definition named on row `r`, if the row starts with one. */
function definitionAt(ix: IndentIndex, r: number): string | undefined {
  DEFINITION.lastIndex = ix.firstChar[r]!;
  return DEFINITION.exec(ix.text)?.[1];
}

/**
 * Innermost class/function containing 0-based rows [lo, hi] as a dotted name (`<module>` when none),
 * like python-scope.ts's tree walk: a definition spans from its `def`/`class` line to its last code line
 * (the last before code at its indentation or left of it). `ix` is the text's index, when already built.
 */
export function indentScope(text: string, lo: number, hi: number, ix: IndentIndex = indexPython(text)): string {
  const lines = ix.flags.length;
  if (lo >= lines) return '<module>';
  const candidates: Candidate[] = [];
  let limit = Number.POSITIVE_INFINITY;
  for (let r = lo; r >= 0 && limit > 0; r--) {
    if (!code(ix, r)) continue;
    const indent = ix.indent[r]!;
    if (r !== lo && indent >= limit) continue;
    const name = definitionAt(ix, r);
    if (name !== undefined) candidates.push({ indent, name, row: r });
    limit = indent;
  }
  // The first code line at or after `hi`: a definition reaching it (or being it) reaches `hi`.
  let next = hi;
  while (next < lines && !code(ix, next)) next++;
  const names: string[] = [];
  for (let i = candidates.length - 1; i >= 0; i--) {
    if (!reaches(ix, candidates[i]!, lo, hi, next)) break;
    names.push(candidates[i]!.name);
  }
  return names.length > 0 ? names.join('.') : '<module>';
}

/** True when definition `c` holds rows [lo, hi]: no code left of its body before `hi`, and it lasts to `hi`. */
function reaches(ix: IndentIndex, c: Candidate, lo: number, hi: number, next: number): boolean {
  const lines = ix.flags.length;
  for (let r = Math.max(lo, c.row + 1); r < hi && r < lines; r++) {
    if (code(ix, r) && ix.indent[r]! <= c.indent) return false;
  }
  // `hi` continues a statement (inside brackets or a string) that the checks above place inside `c`.
  if (hi < lines && !code(ix, hi) && (ix.flags[hi]! & CODE) !== 0) return true;
  if (next >= lines) return false;
  return next === c.row || ix.indent[next]! > c.indent;
}

/**
 * {@link indentScope}'s answer when it is provably the tree's, else undefined (ask tree-sitter). The text must be
 * plain ({@link IndentIndex.plain}); and `hi` must not sit where the tree draws a definition's end otherwise than
 * its last code line: on a blank or comment line of a run of such lines holding a comment (tree-sitter keeps
 * comments indented into a body inside it), or on a blank or `#` line inside a string or brackets.
 */
export function plainIndentScope(ix: IndentIndex, lo: number, hi: number): string | undefined {
  if (!ix.plain) return undefined;
  const lines = ix.flags.length;
  if (hi < lines) {
    const f = ix.flags[hi]!;
    if ((f & START) === 0 && (f & CODE) === 0) return undefined;
    if ((f & CODE) === 0 && commentNear(ix, hi)) return undefined;
  }
  return indentScope(ix.text, lo, hi, ix);
}

/** True when the run of blank and comment lines around `row` (all beginning statements) holds a comment. */
function commentNear(ix: IndentIndex, row: number): boolean {
  const lines = ix.flags.length;
  const gap = (r: number): boolean => (ix.flags[r]! & CODE) === 0 && (ix.flags[r]! & START) !== 0;
  for (let r = row; r >= 0 && gap(r); r--) if ((ix.flags[r]! & COMMENT) !== 0) return true;
  for (let r = row + 1; r < lines && gap(r); r++) if ((ix.flags[r]! & COMMENT) !== 0) return true;
  return false;
}
