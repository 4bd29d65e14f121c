/**
 * Bounded memory: every set of names an evidence tracker keeps is capped, so a run of
 * any length costs O(1) per step. Keys past a cap are ignored, as the definitions in
 * conformance.test.ts say; these facts are built by hand because no real run comes near
 * the caps.
 */
import { describe, expect, it } from 'vitest';
import { createPatchTracker, MAX_PATCH_FILES } from '../../src/core/evidence/patch-tracker.js';
import type { StepEvidence } from '../../src/core/evidence/step-evidence.js';
import { createTargetTracker, MAX_EDITED_FILES, MAX_READ_FILES } from '../../src/core/evidence/target-tracker.js';
import { createReproTracker, MAX_RUN_KEYS } from '../../src/core/evidence/test-trackers.js';

const fact = (over: Partial<StepEvidence>): StepEvidence => ({ sourceEdit: false, testRun: null, error: null, tracePaths: [], patch: null, ...over });

describe('evidence caps', () => {
  it('follows at most MAX_RUN_KEYS run keys: a key past the cap never flips', () => {
    const t = createReproTracker();
    for (let i = 0; i < MAX_RUN_KEYS; i++) t.add(fact({ run: { key: `ok${i}.py`, verdict: 'pass' } }));
    t.add(fact({ run: { key: 'late.py', verdict: 'fail' } }));
    expect(t.value().failedBeforeEdit).toBe(0);
    t.add(fact({ sourceEdit: true, changed: { file: 'a.py', role: 'source', lines: 1 } }));
    t.add(fact({ run: { key: 'late.py', verdict: 'pass' } }));
    expect(t.value()).toEqual({ failedBeforeEdit: 0, flipped: 0 });
    const u = createReproTracker();
    u.add(fact({ run: { key: 'late.py', verdict: 'fail' } }));
    u.add(fact({ sourceEdit: true }));
    u.add(fact({ run: { key: 'late.py', verdict: 'pass' } }));
    expect(u.value()).toEqual({ failedBeforeEdit: 1, flipped: 1 });
  });

  it('counts at most MAX_PATCH_FILES edited files but every edited line', () => {
    const t = createPatchTracker();
    for (let i = 0; i < MAX_PATCH_FILES + 50; i++) t.add(fact({ sourceEdit: true, changed: { file: `f${i}.py`, role: 'source', lines: 2 } }));
    expect(t.value().files).toBeCloseTo(Math.log1p(MAX_PATCH_FILES), 12);
    expect(t.value().lines).toBeCloseTo(Math.log1p(2 * (MAX_PATCH_FILES + 50)), 12);
  });

  it('remembers at most MAX_READ_FILES files read and judges at most MAX_EDITED_FILES edited ones', () => {
    const t = createTargetTracker();
    for (let i = 0; i <= MAX_READ_FILES; i++) t.add(fact({ read: `r${i}.py` }));
    t.add(fact({ sourceEdit: true, changed: { file: `r${MAX_READ_FILES}.py`, role: 'source', lines: 1 } }));
    expect(t.value().readShare).toBe(0);
    t.add(fact({ sourceEdit: true, changed: { file: 'r0.py', role: 'source', lines: 1 } }));
    expect(t.value().readShare).toBe(0.5);
    for (let i = 0; i < MAX_EDITED_FILES + 10; i++) t.add(fact({ sourceEdit: true, changed: { file: `e${i}.py`, role: 'source', lines: 1 } }));
    expect(t.value().readShare).toBeCloseTo(1 / MAX_EDITED_FILES, 12);
  });
});
