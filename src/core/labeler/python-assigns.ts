/**
 * Path assignments in Python text (`TARGET = 'pkg/mod.py'`, `p = Path("a/b.py")`), found from each `=` instead of by
 * one pattern tried at every character: the pattern `(?:^|[\s;(,])([A-Za-z_]\w*)\s*=\s*...` started a match after
 * every blank and ran along every word, which made it the labeler's costliest step on scripts an agent writes
 * (bench/README.md, "Lifecycle CPU per step"). The matches are the pattern's, in its order, with its
 * non-overlapping rule: a match that ends in a string literal hides any `=` inside that literal
 * (test/labeler/python-assigns.test.ts compares both on every corpus text and on generated texts).
 */

/** What follows the name: `=`, an optional `Path(` and a one-line string literal with no backslash. */
const VALUE = /\s*=\s*(?:(?:pathlib\.)?Path\(\s*)?[rRuUbBfF]{0,2}(?:'([^'\\\n]*)'|"([^"\\\n]*)")/y;
const SPACE = /\s/;

/** `\s` of one character: the ASCII blanks by code, the rest (no-break and Unicode spaces) by the pattern. */
function isSpace(code: string, i: number): boolean {
  const c = code.charCodeAt(i);
  return c < 0x80 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) : SPACE.test(code[i]!);
}

function isWord(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

/** The characters a name may follow (besides the start of the text): a blank, `;`, `(` or `,`. */
function opensName(code: string, i: number): boolean {
  const c = code.charCodeAt(i);
  return c === 0x3b || c === 0x28 || c === 0x2c || isSpace(code, i);
}

/**
 * True for a character a value may start with after `=` and blanks: a quote, a string prefix (`rRuUbBfF`), or the `p`
 * of `pathlib.` / `P` of `Path(`. Most `=` of a script (`==`, `x = 0`, `y = f(x)`) fail here, before the pattern runs.
 */
function mayStartValue(c: number): boolean {
  switch (c) {
    case 0x27: // '
    case 0x22: // "
    case 0x72: // r
    case 0x52: // R
    case 0x75: // u
    case 0x55: // U
    case 0x62: // b
    case 0x42: // B
    case 0x66: // f
    case 0x46: // F
    case 0x70: // p
    case 0x50: // P
      return true;
    default:
      return false;
  }
}

/** Each `name = 'literal'` of `code` as the name then the literal's text (not yet checked to be a path), in order. */
export function assignedLiterals(code: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let eq = code.indexOf('=', from); eq >= 0; eq = code.indexOf('=', Math.max(eq + 1, from))) {
    let value = eq + 1;
    while (value < code.length && isSpace(code, value)) value++;
    if (!mayStartValue(code.charCodeAt(value))) continue;
    let end = eq;
    while (end > 0 && isSpace(code, end - 1)) end--;
    let start = end;
    while (start > 0 && isWord(code.charCodeAt(start - 1))) start--;
    // A name starts with a letter or `_`, at the start of the text or right after a character that opens one. The
    // last match ended on a quote, which stops both walks back: a name found here starts past that match.
    const first = code.charCodeAt(start);
    if (start === end || (first >= 0x30 && first <= 0x39) || (start > 0 && !opensName(code, start - 1))) continue;
    VALUE.lastIndex = end;
    const m = VALUE.exec(code);
    if (m === null) continue;
    out.push(code.slice(start, end), m[1] ?? m[2]!);
    from = VALUE.lastIndex;
  }
  return out;
}
