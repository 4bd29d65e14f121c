/** The real log excerpts under test/fixtures (gzipped) and the check every parser owes them: streamed = whole. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Step } from '../../src/core/types.js';
import { getParser, type FormatName } from '../../src/formats/index.js';

/** A fixture's URL and its text (gunzipped when it ends in .gz). */
export function fixtureLog(name: string): { file: URL; text: string } {
  const file = new URL(`../fixtures/${name}`, import.meta.url);
  const bytes = readFileSync(file);
  return { file, text: (name.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8') };
}

/** The steps of `docs` pushed event by event through `format`'s stream parser, then ended. */
export function streamedSteps(format: FormatName, docs: readonly unknown[]): Step[] {
  const parser = getParser(format);
  const sp = parser.stream();
  const steps = docs.flatMap((d) => parser.events(d)).flatMap((e) => sp.push(e).steps);
  steps.push(...sp.end().steps);
  return steps;
}
