/**
 * The annotation set of the repeat detectors (test/fixtures/detector-annotations.jsonl, rules and
 * sources in test/fixtures/README.md): every item the detectors fired on real runs, judged by reading
 * the steps. On the 55 corpus runs (annotated exhaustively) today's detectors must fire exactly the
 * items the set says fire after the fix, so a change that fires something new, or stops firing
 * something, fails here until it is annotated. `node dist/bench/detector-precision.js` prints the
 * precision figures (and checks the calibration runs with `--verify ../shared`).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { annotationKey, precisions, readAnnotations } from '../../bench/detectors/annotations.js';
import { DETECTORS, firedItems, itemKey } from '../../bench/detectors/items.js';
import { parseLogText } from '../../src/formats/index.js';
import { discover } from '../../src/report/discover.js';
import { nodeReportFs } from '../../src/report/node-fs.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const FILE = path.join(import.meta.dirname, '..', 'fixtures', 'detector-annotations.jsonl');
const records = readAnnotations(FILE);

describe('the detector annotation set', () => {
  it('holds at least 100 annotated items of every repeat detector, from corpus and calibration runs, before and after the fix', () => {
    const items = records.filter((r) => r.detector !== 'coherence_retry');
    expect(items.length).toBeGreaterThanOrEqual(100);
    for (const d of DETECTORS) expect(records.filter((r) => r.detector === d).length, d).toBeGreaterThan(0);
    expect(new Set(records.map((r) => r.run.split('/')[0]))).toEqual(new Set(['corpus', 'calibration']));
    expect(new Set(records.map((r) => r.source)).size).toBeGreaterThanOrEqual(10);
    for (const version of ['before', 'after'] as const) expect(records.filter((r) => r.samples.includes(version) && r[version]).length).toBeGreaterThanOrEqual(100);
    // An item drawn in a version's sample fired in that version, except that one drawn in the after sample may
    // have stopped firing since (the detectors or the labeler moved: `after` is today's code). It then keeps its
    // samples with `after: false`, and a later record of the same run and detector, with `before: false`, is
    // the item that replaced it in the after sample.
    records.forEach((r, i) => {
      if (r.detector === 'coherence_retry') return;
      for (const v of r.samples) {
        const replaced = v === 'after' && !r.after && records.slice(i + 1).some((x) => x.run === r.run && x.detector === r.detector && !x.before && x.after && x.samples.includes('after'));
        expect(r[v] || replaced, `${r.run} ${annotationKey(r)}`).toBe(true);
      }
    });
  });

  it('computes each detector precision over its own sample, with an interval', () => {
    const after = precisions(records).filter((p) => p.version === 'after' && p.n > 0);
    expect(after.length).toBe(DETECTORS.length);
    for (const p of after) expect(p.low).toBeLessThanOrEqual(p.tp / p.n);
  });

  it("today's detectors fire on every corpus run exactly the items the set says fire after the fix", () => {
    const root = path.dirname(CORPUS_DIR);
    const found = discover(nodeReportFs, [CORPUS_DIR], (text, source) => parseLogText(text, 'auto', source), {});
    const ids = new Set<string>();
    for (const tr of found.trajectories) {
      const id = path.relative(root, tr.id);
      ids.add(id);
      const fired = firedItems(tr.steps).map(itemKey).sort();
      const annotated = records
        .filter((r) => r.run === id && r.after)
        .map(annotationKey)
        .sort();
      expect(fired, id).toEqual(annotated);
    }
    const unknown = records.filter((r) => r.run.startsWith('corpus/') && !ids.has(r.run)).map((r) => r.run);
    expect(unknown).toEqual([]);
  }, 120_000);
});
