/**
 * `report --failing-reference` through the CLI (in process): by default (`matched`) a failing run meets a PTA of
 * n − 1 passing runs of its task, as every passing run does, so report's separation compares runs scored against
 * references of one size; `all` keeps the older rule (the PTA of all n); anything else is one usage error.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorpusReport } from '../../src/report/types.js';
import { cli } from '../cli/run-cli.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

/** 15 SWE-agent 0.x runs on 3 Java tasks, one of them with 3 passing runs (an in-folder reference). */
const JAVA = path.join(CORPUS_DIR, 'multi-swe-bench__experiments');

describe('report --failing-reference', () => {
  it('matched by default, all on request, a clear error otherwise', async () => {
    const [matched, all, bad] = await Promise.all([
      cli('report', '--json', JAVA),
      cli('report', '--json', '--failing-reference', 'all', JAVA),
      cli('report', '--json', '--failing-reference', 'some', JAVA),
    ]);
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([1, '', "steplens report: --failing-reference must be matched or all, got 'some'\n"]);
    const runs = (r: { code: number; stdout: string }) => {
      expect(r.code).toBe(0);
      const doc = JSON.parse(r.stdout) as CorpusReport;
      return doc.trajectories
        .filter((t) => t.reference?.kind === 'in-folder')
        .map((t) => ({ id: t.id, outcome: t.outcome, references: t.references, total: t.score?.total, n: doc.tasks.find((x) => x.task === t.task)!.references }));
    };
    const [m, a] = [runs(matched), runs(all)];
    expect(m.map((r) => r.id)).toEqual(a.map((r) => r.id));
    const failing = m.filter((r) => r.outcome === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    for (const r of m) expect(r.references, r.id).toBe(r.n - 1);
    a.forEach((r, i) => {
      expect(r.references, r.id).toBe(r.outcome === 'pass' ? r.n - 1 : r.n);
      // A passing run's reference is the same under both rules; a failing run's score moves with its reference.
      if (r.outcome === 'pass') expect(r.total, r.id).toBe(m[i]!.total);
    });
    expect(failing.some((r) => r.total !== a.find((x) => x.id === r.id)!.total)).toBe(true);
  }, 180_000);
});
