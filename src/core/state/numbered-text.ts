/**
 * Parsing of file contents out of observations: `cat -n`-style editor views
 * (`     12\tcode`), SWE-agent 0.x windows (`12:code`), plain text.
 */

/** Lines of a numbered listing: line number -> text. Only the longest run of consecutive numbers is kept. */
export function parseNumberedLines(observation: string): Map<number, string> {
  const best = new Map<number, string>();
  let run = new Map<number, string>();
  let prev = -1;
  for (const line of observation.split('\n')) {
    const m = /^\s*(\d+)(?:\t|:)(.*)$/.exec(line);
    if (!m) continue;
    const n = Number(m[1]);
    if (prev >= 0 && n !== prev + 1) {
      if (run.size > best.size) copyInto(best, run);
      run = new Map();
    }
    run.set(n, m[2] ?? '');
    prev = n;
  }
  if (run.size > best.size) copyInto(best, run);
  return best;
}

function copyInto(target: Map<number, string>, source: Map<number, string>): void {
  target.clear();
  for (const [k, v] of source) target.set(k, v);
}

/** Plain text lines (a trailing newline adds no line, and an empty text has none). */
export function plainLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Lines of `text` split at `\n`: its newlines and one. */
export function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Splits text into lines (a trailing newline adds no line). */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
