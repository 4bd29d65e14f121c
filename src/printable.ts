/**
 * The one escaping function for text that reaches a person: a terminal, a Markdown or CSV file, an
 * error line. Logs are written by agents and by the programs they ran, so any string taken from a
 * log may hold ESC sequences (clear the screen, set the title, write the clipboard) or bidi
 * overrides that make text read differently from what it is. They become visible `\uXXXX` escapes,
 * which are also valid JSON escapes: escaping a JSON document changes no value in it.
 */

/**
 * C0 controls except tab and newline, DEL, C1 controls (0x9b is a one-byte CSI), and the bidi
 * embedding, override and isolate controls (Trojan Source, CVE-2021-42574).
 */
// eslint-disable-next-line no-control-regex -- control characters are what this matches
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control character escaped as `\uXXXX`; tab and newline are kept. */
export function escapeControl(text: string): string {
  return text.replace(CONTROL, escape);
}

/** One printable line: newlines become spaces, every other control character is escaped ({@link escapeControl}). */
export function printable(text: string): string {
  return escapeControl(text.replace(/\r?\n/g, ' '));
}
