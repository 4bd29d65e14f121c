/**
 * The class of a final patch (src/core/rank/patch-class.ts): what a live session's final keeps of the diff its end
 * carried, so that the vote over sessions equals the vote over the same runs' trajectories. On every corpus run.
 */
import { describe, expect, it } from 'vitest';
import { createFinalPatchTracker, normalisedDiff } from '../../src/core/rank/final-patch.js';
import { diffClass, patchClass } from '../../src/core/rank/patch-class.js';
import { voteByKey, voteScores } from '../../src/core/rank/vote.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

/** Per corpus run: its normalised final patch (the trajectory path) and the diff its last finish step printed. */
const RUNS = corpusRuns().map((r) => {
  const t = createFinalPatchTracker();
  let submitted: string | undefined;
  labelSteps(r.steps, analyzers).forEach(({ label, state }, i) => {
    const step = r.steps[i]!;
    t.add(step, state, label);
    if (state.kind === 'finish' && step.observation !== undefined && normalisedDiff(step.observation) !== null) submitted = step.observation;
  });
  // The file's name less its extensions: the task for most logs of the corpus (a group of runs, whatever it is).
  const group = /([^/]+?)(\.traj)?(\.json)?#\d+$/.exec(r.name)![1]!;
  return { name: r.name, group, patch: t.value(), submitted };
});

describe('diffClass', () => {
  it('gives the class of the trajectory path for every corpus run that submitted a diff', () => {
    const submitted = RUNS.filter((r) => r.submitted !== undefined);
    expect(submitted.length).toBeGreaterThan(30);
    for (const r of submitted) expect(diffClass(r.submitted!), r.name).toEqual({ ok: true, value: patchClass(r.patch) });
  });

  it('reads blank text as no change, a diff of tests and scratch files only as no source change, and refuses text with no diff header', () => {
    expect(diffClass('')).toEqual({ ok: true, value: { key: null, lines: 0 } });
    expect(diffClass(' \n\n')).toEqual({ ok: true, value: { key: null, lines: 0 } });
    // A real diff (jackson-databind-4486, deepseek-chat-v2) without its source file's block: its reproduction script only.
    const chat = RUNS.find((r) => r.name.includes('SWE-agent_deepseek-chat-v2/trajs/fasterxml__jackson-databind-4486'))!;
    const blocks = chat.submitted!.slice(chat.submitted!.indexOf('diff --git')).split(/(?=^diff --git )/m);
    expect(blocks.length).toBe(2);
    const scratch = blocks.filter((b) => !b.includes('src/main/java'));
    expect(scratch).toHaveLength(1);
    expect(diffClass(scratch.join(''))).toEqual({ ok: true, value: { key: null, lines: 0 } });
    expect(diffClass(blocks.join(''))).toEqual({ ok: true, value: patchClass(chat.patch) });
    expect(diffClass('--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n')).toEqual({ ok: false, error: "holds no 'diff --git' header: send the output of git diff (an empty string: no change)" });
  });
});

describe('patchClass and the vote by key', () => {
  it('is one key per distinct patch: the vote by key equals the vote on the lines, in every group of the corpus runs of one task', () => {
    const groups = new Map<string, string[][]>();
    for (const r of RUNS) groups.set(r.group, [...(groups.get(r.group) ?? []), r.patch]);
    groups.set(
      '(every run)',
      RUNS.map((r) => r.patch),
    );
    let agreeing = 0;
    for (const [task, patches] of groups) {
      const byLines = voteScores(patches);
      expect(voteByKey(patches.map((p) => patchClass(p).key)), task).toEqual(byLines);
      if (byLines.some((v) => v > 1)) agreeing += 1;
    }
    expect(agreeing).toBeGreaterThan(3);
    const keys = new Map<string, string>();
    for (const r of RUNS) {
      const c = patchClass(r.patch);
      expect(c.lines).toBe(r.patch.length);
      expect(c.key === null).toBe(r.patch.length === 0);
      if (c.key !== null) {
        const text = r.patch.join('\n');
        expect(keys.get(c.key) ?? text, r.name).toBe(text);
        keys.set(c.key, text);
      }
    }
  });
});
