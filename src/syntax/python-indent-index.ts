/**
 * One pass of character codes over a Python text that python-indent-scope.ts reads scopes from: per line, whether a
 * statement may start on it, whether it holds code, its indentation; and whether the text is plain enough that
 * indentation gives tree-sitter-python's scopes (see {@link IndentIndex.plain}). Built once per text version.
 */

/** Per-line flags. */
export const START = 1; // no string, bracket or backslash continuation is open where the line begins
export const CODE = 2; // not blank and not only a comment (as `trim()` sees it)
export const COMMENT = 4; // first non-blank character is `#`

export interface IndentIndex {
  text: string;
  /** Offset of each line's first character (lines split at `\n`, as `text.split('\n')`). */
  lineStart: Int32Array;
  /** {@link START} | {@link CODE} | {@link COMMENT} per line. */
  flags: Uint8Array;
  /** Columns of leading whitespace (a tab to the next multiple of 8, `\f` back to 0). */
  indent: Int32Array;
  /** Offset of each line's first non-blank character. */
  firstChar: Int32Array;
  /**
   * True when nothing seen would make tree-sitter-python read the text otherwise than its indentation says: no `\r`,
   * tabs or odd whitespace in the indentation of statements, strings and brackets closed at the end, every indent
   * after a line ending in `:` and every dedent to an open level, no character Python never has outside strings.
   */
  plain: boolean;
}

const NL = 10;
const SPACE = 32;
const TAB = 9;
const FF = 12;
const HASH = 35;
const BACKSLASH = 92;
const COLON = 58;
const DQ = 34;
const SQ = 39;
const NON_ASCII_SPACE = /\s/;
const AT = 64;
const KEYWORDS = new Set(
  'and as assert async await break case class continue def del elif else except exec finally for from global if import in is lambda match nonlocal not or pass print raise return try type while with yield'.split(
    ' ',
  ),
);

/** True for `[A-Za-z0-9_]`. */
function wordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/**
 * False for a statement line tree-sitter reads as an error: its first word followed by another word or a literal
 * with no keyword to join them (`edit 66:66`, an editor's command pasted into a file).
 */
function wordsJoin(text: string, at: number): boolean {
  const c0 = text.charCodeAt(at);
  if (!wordChar(c0) || (c0 >= 48 && c0 <= 57)) return true;
  let end = at + 1;
  while (wordChar(text.charCodeAt(end))) end++;
  let next = end;
  while (text.charCodeAt(next) === SPACE || text.charCodeAt(next) === TAB) next++;
  const c = text.charCodeAt(next);
  if (next === end || !(wordChar(c) || c === DQ || c === SQ)) return true;
  return KEYWORDS.has(text.slice(at, end));
}

/** True for a character `String.prototype.trim` removes. */
function isBlank(c: number, text: string, i: number): boolean {
  if (c === SPACE || (c >= TAB && c <= 13)) return true;
  return c >= 128 && NON_ASCII_SPACE.test(text[i]!);
}

/** True for a code unit that never appears outside a string or comment of real Python: `$ ? \``, control, non-ASCII. */
function foreign(c: number): boolean {
  return c === 36 || c === 63 || c === 96 || c >= 127 || (c < SPACE && c !== TAB && c !== FF);
}

/** The index of `text`: the tokenizer python-indent-scope.ts always had (quotes, brackets, comments), one pass. */
export function indexPython(text: string): IndentIndex {
  const n = text.length;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  const lineStart = new Int32Array(lines);
  const flags = new Uint8Array(lines);
  const indent = new Int32Array(lines);
  const firstChar = new Int32Array(lines);
  let plain = !text.includes('\r');
  let quote = 0; // the open quote's character code, 0 for none
  let triple = false;
  let depth = 0;
  let continued = false;
  const levels = [0]; // open indentation levels of the statements seen
  let opens = false; // the last statement ended in `:`
  let last = 0; // the last character of code (not blank, not in a comment) of the statement being read
  let decorated = false; // the last statement was a decorator: a definition must follow
  let i = 0;
  for (let row = 0; row < lines; row++) {
    lineStart[row] = i;
    const start = quote === 0 && depth === 0 && !continued;
    continued = false;
    // Leading whitespace: Python's columns, and where `trim()` would stop.
    let col = 0;
    let oddSpace = false;
    let j = i;
    for (; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === SPACE) col++;
      else if (c === TAB) col = col - (col % 8) + 8;
      else if (c === FF) col = 0;
      else break;
      if (c !== SPACE) oddSpace = true;
    }
    let k = j;
    while (k < n && text.charCodeAt(k) !== NL && isBlank(text.charCodeAt(k), text, k)) k++;
    if (k !== j) oddSpace = true;
    const first = k < n ? text.charCodeAt(k) : NL;
    indent[row] = col;
    firstChar[row] = k;
    let f = start ? START : 0;
    if (first !== NL) f |= first === HASH ? COMMENT : CODE;
    flags[row] = f;
    if (start && first !== NL) {
      if (oddSpace) plain = false;
      if (first !== HASH) {
        const top = levels[levels.length - 1]!;
        if (opens) {
          if (col > top) levels.push(col);
          else plain = false; // a block with no indented body
        } else if (col > top)
          plain = false; // an indent no `:` opened
        else {
          while (col < levels[levels.length - 1]!) levels.pop();
          if (col !== levels[levels.length - 1]) plain = false; // a dedent to no open level
        }
        last = 0;
        const definition = first === AT || text.startsWith('def ', k) || text.startsWith('class ', k) || text.startsWith('async ', k);
        if ((decorated && !definition) || !wordsJoin(text, k)) plain = false;
        decorated = first === AT;
      }
    }
    // The line's characters: quotes (single, triple, escapes), comments, brackets.
    let comment = false;
    i = j;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === NL) break;
      if (quote !== 0) {
        if (c === BACKSLASH) {
          if (i + 1 < n && text.charCodeAt(i + 1) !== NL) i++;
        } else if (c === quote && (!triple || (text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c))) {
          if (triple) i += 2;
          quote = 0;
          last = c;
        }
        continue;
      }
      if (c === HASH) {
        comment = true;
        const end = text.indexOf('\n', i);
        i = end < 0 ? n : end;
        break;
      }
      if (c === DQ || c === SQ) {
        quote = c;
        triple = text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c;
        if (triple) i += 2;
      } else if (c === 40 || c === 91 || c === 123) depth++;
      else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
      else if (foreign(c) || (c === BACKSLASH && i + 1 < n && text.charCodeAt(i + 1) !== NL)) plain = false;
      if (c !== SPACE && c !== TAB && c !== FF) last = c;
    }
    const endsInBackslash = i > lineStart[row]! && text.charCodeAt(i - 1) === BACKSLASH;
    if (quote !== 0 && !triple) {
      // A single-quoted string open at its line's end is an error, or continued by a backslash (which this index
      // does not follow): the tree's reading is its own either way.
      plain = false;
      quote = 0;
    }
    if (quote === 0 && endsInBackslash) {
      continued = true;
      if (comment) plain = false; // read as a continuation, which Python does not
    }
    if (quote === 0 && depth === 0 && !continued) opens = last === COLON;
    i++; // past the `\n`
  }
  if (quote !== 0 || depth !== 0 || continued || opens || decorated) plain = false;
  return { text, lineStart, flags, indent, firstChar, plain };
}
