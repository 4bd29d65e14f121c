/** The normalised final patch and the vote on it (src/core/rank/final-patch.ts, vote.ts), on the corpus runs' own patches. */
import { describe, expect, it } from 'vitest';
import { commentStyle, createFinalPatchTracker, normaliseCodeLine, normalisedDiff } from '../../src/core/rank/final-patch.js';
import { softVoteScores, voteScores } from '../../src/core/rank/vote.js';
import { labelSteps } from '../../src/core/state-builder.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

const finalPatchOf = (steps: Step[]): string[] => {
  const t = createFinalPatchTracker();
  labelSteps(steps, analyzers).forEach(({ label, state }, i) => t.add(steps[i]!, state, label));
  return t.value();
};
/** The last diff a finish step of the run printed. */
const submittedDiff = (steps: Step[]): string | undefined => steps.filter((s) => s.action.kind === 'finish' && (s.observation ?? '').includes('diff --git ')).at(-1)?.observation;

/** SWE-agent on fasterxml__jackson-databind-4486, five models (test/fixtures/SOURCES.md: the multi-swe-bench experiments). */
const JACKSON = corpusRuns()
  .filter((r) => r.name.includes('fasterxml__jackson-databind-4486.traj'))
  .sort((a, b) => (a.name < b.name ? -1 : 1));

describe('normaliseCodeLine', () => {
  it('drops blank and comment-only lines by the file’s comment syntax, trailing comments outside strings, and formatting', () => {
    expect(commentStyle('src/a/b.py')).toBe('hash');
    expect(commentStyle('src/main/java/X.java')).toBe('slash');
    expect(commentStyle('README')).toBe('none');
    expect(normaliseCodeLine('   ', 'hash')).toBe('');
    expect(normaliseCodeLine('    # a note', 'hash')).toBe('');
    expect(normaliseCodeLine('    // @since 2.15', 'slash')).toBe('');
    expect(normaliseCodeLine(' * Javadoc text', 'slash')).toBe('');
    // `*ptr` is code, and `#include` is not a comment where `#` does not start one.
    expect(normaliseCodeLine('*ptr = 1;', 'slash')).toBe('*ptr=1;');
    expect(normaliseCodeLine('#include <x.h>', 'slash')).toBe('#include<x.h>');
    expect(normaliseCodeLine('x = f(a,  b)  # why', 'hash')).toBe('x=f(a,b)');
    // A `#` after a quote may be in a string: the line is kept whole (a comment after a string is kept too).
    expect(normaliseCodeLine("s = '#'  # a hash", 'hash')).toBe("s='#'#a hash");
    expect(normaliseCodeLine('  return   value', 'hash')).toBe('return value');
    expect(normaliseCodeLine('f("x")', 'hash')).toBe(normaliseCodeLine("f('x')", 'hash'));
  });
});

describe('normalisedDiff on the corpus patches', () => {
  it('is the same for two submitted diffs that differ only in their scratch files (jackson-databind-4486)', () => {
    const [chat, coder] = [JACKSON[0]!, JACKSON[1]!];
    expect(chat.name).toContain('deepseek-chat-v2');
    expect(coder.name).toContain('deepseek-coder-v2');
    const a = submittedDiff(chat.steps)!;
    const b = submittedDiff(coder.steps)!;
    expect(a).not.toBe(b); // ReproduceIssue.java against Reproduction.java
    expect(normalisedDiff(a)).toEqual(normalisedDiff(b));
    expect(normalisedDiff(a)!.every((l) => l.startsWith('src/main/java/com/fasterxml/jackson/databind/deser/std/EnumDeserializer.java\0'))).toBe(true);
  });

  it('ignores reformatting, comments, hunk order and context, and cancels a line removed and added again', () => {
    const diff = submittedDiff(JACKSON[0]!.steps)!;
    const start = diff.indexOf('diff --git');
    const blocks = diff.slice(start).split(/(?=^diff --git )/m);
    expect(blocks.length).toBeGreaterThan(1);
    // The blocks in reverse order; each added line re-indented with its spaces doubled; a comment line added; a
    // context line removed and added again.
    const reformatted = blocks
      .reverse()
      .map((b) =>
        b
          .split('\n')
          .flatMap((l) => (l.startsWith('+') && !l.startsWith('+++') ? [l.replaceAll(' ', '  '), '+    // a note'] : l.startsWith(' ') ? [`-${l.slice(1)}`, `+${l.slice(1)}`] : [l]))
          .join('\n'),
      )
      .join('\n');
    expect(normalisedDiff(reformatted)).toEqual(normalisedDiff(diff));
    expect(normalisedDiff('no diff here')).toBeNull();
  });

  it('a run with no submitted diff votes with the source edits it made (OpenHands)', () => {
    const run = corpusRuns().find((r) => r.name.startsWith('OpenHands__OpenHands') && r.steps.some((s) => s.action.kind === 'edit'));
    expect(run).toBeDefined();
    expect(run!.steps.some((s) => (s.observation ?? '').includes('diff --git '))).toBe(false);
    expect(finalPatchOf(run!.steps).length).toBeGreaterThan(0);
  });

  it('online equals from scratch at every prefix (the tracker keeps the latest submitted diff, else the edits)', () => {
    for (const run of JACKSON) {
      const t = createFinalPatchTracker();
      const labelled = labelSteps(run.steps, analyzers);
      labelled.forEach(({ label, state }, i) => {
        t.add(run.steps[i]!, state, label);
        expect(t.value()).toEqual(finalPatchOf(run.steps.slice(0, i + 1)));
      });
    }
  });
});

describe('voteScores', () => {
  it('counts the runs with the same normalised patch; an empty patch gets 0 (jackson-databind-4486, five models)', () => {
    const patches = JACKSON.map((r) => finalPatchOf(r.steps));
    expect(JACKSON.map((r) => /SWE-agent_([^/]+)\//.exec(r.name)?.[1])).toEqual(['deepseek-chat-v2', 'deepseek-coder-v2', 'doubao-pro-128k', 'gpt-4o-2024-05-13', 'gpt-4o-mini-2024-07-18']);
    expect(voteScores(patches)).toEqual([3, 3, 1, 1, 3]);
    expect(voteScores([[], [], ['f\0+x']])).toEqual([0, 0, 1]);
    const soft = softVoteScores(patches);
    expect(soft[0]).toBe(soft[1]);
    expect(soft[0]).toBeGreaterThan(soft[3]!);
  });
});
