/** vitest global setup: unpack the fixture corpus once per run, before any test file reads it. */
import { ensureCorpus } from './fixtures/corpus.js';

export default function setup(): void {
  ensureCorpus();
}
