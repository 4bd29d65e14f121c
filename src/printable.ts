/**
 * The one escaping function for text that reaches a person: a terminal, a Markdown or CSV file, an
 * error line. Logs are written by agents and by the programs they ran, so any string taken from a
 * log may hold ESC sequences (clear the screen, set the title, write the clipboard) or bidi
 * overrides that make text read differently from what it is. They become visible `\uXXXX` escapes,
 * which are also valid JSON escapes: escaping a JSON document changes no value in it.
 */

/**
 * Characters a reader cannot see, which make a name pass for another: Unicode's format characters (`\p{Cf}`): the
 * bidi embedding, override and isolate controls and marks (Trojan Source, CVE-2021-42574), the zero-width space,
 * joiners and word joiner, the byte order mark, the soft hyphen, the tag characters (U+E0000 block), ... The web view
 * shows them as this module does (`web/src/dom.ts`): a zero-width joiner inside an emoji is shown as `\u200d` too.
 */
const INVISIBLE = /\p{Cf}/gu;

/** Those and the C0 controls except tab and newline, DEL, and the C1 controls (0x9b is a one-byte CSI). */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]|\p{Cf}/gu;

/** `\uXXXX` per UTF-16 unit: a tag character (outside the BMP) becomes its surrogate pair, still a JSON escape. */
const escape = (c: string): string => {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
};

/** `text` with every control and format character escaped as `\uXXXX`; tab and newline are kept. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, escape);
}

/** `text` with its format characters ({@link INVISIBLE}) escaped and other controls kept (the web view's text, which shows terminal output as it is). */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, escape);
}

/** One printable line: newlines become spaces, every other control character is escaped ({@link escapeControl}). */
export function printable(text: string): string {
  return escapeControl(text.replace(/\r?\n/g, ' '));
}
