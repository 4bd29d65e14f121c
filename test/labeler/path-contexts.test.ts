/**
 * The labeler hands out a step's path context (and its resolver) from the last few it made when one equals it,
 * instead of new objects every step. Each step's context must be the one the per-step construction gave, kept
 * here as the reference, on every real corpus run and on a run that moves between more directories (and roots)
 * than it keeps; and a context once handed out is never changed by a later step.
 */
import { describe, expect, it } from 'vitest';
import { Labeler } from '../../src/core/labeler/labeler.js';
import { knownRoot, normalizePosix, stripRoot, toRepoPath, type PathContext } from '../../src/core/labeler/paths.js';
import { stepFailed } from '../../src/core/state/failure.js';
import type { Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

/** The labeler's contexts as they were built until this pass: a context a step, and two more for a `cd`. */
function referencePaths(): (step: Step) => { paths: PathContext; root: string | undefined } {
  let root: string | undefined;
  const learnRoot = (path: string): void => {
    if (root === undefined && path.startsWith('/')) root = knownRoot(normalizePosix(path));
  };
  return (step) => {
    const cwd = step.cwd === undefined || step.cwd.trim() === '' ? undefined : normalizePosix(step.cwd.trim());
    if (root === undefined && cwd?.startsWith('/')) root = knownRoot(cwd) ?? cwd;
    const dir = cwd === undefined ? '.' : cwd.startsWith('/') ? (stripRoot(cwd, root) ?? cwd) : cwd;
    const base: PathContext = root === undefined ? { dir } : { root, dir };
    const a = step.action;
    if (a.kind === 'shell') {
      const cd = analyzers.shell.parse(a.command).cd;
      if (cd === undefined) return { paths: base, root };
      learnRoot(cd);
      const at = root ?? base.root;
      const to = toRepoPath(cd, at === undefined ? { dir: base.dir } : { root: at, dir: base.dir });
      return { paths: root === undefined ? (base.root === undefined ? { dir: to } : { root: base.root, dir: to }) : { root, dir: to }, root };
    }
    if ('path' in a && typeof a.path === 'string') learnRoot(a.path);
    return { paths: root === undefined ? base : { ...base, root }, root };
  };
}

/** Labels `steps`, checking each step's context and root against the reference; returns the contexts handed out with their text then. */
function check(steps: readonly Step[], name: string): Array<[PathContext, string]> {
  const labeler = new Labeler(analyzers.shell);
  const reference = referencePaths();
  const seen: Array<[PathContext, string]> = [];
  steps.forEach((step, i) => {
    const outcome = labeler.label(step, stepFailed(step));
    const want = reference(step);
    expect(outcome.paths, `${name} step ${i}`).toEqual(want.paths);
    expect(labeler.repoRoot, `${name} step ${i}`).toBe(want.root);
    seen.push([outcome.paths, JSON.stringify(outcome.paths)]);
  });
  return seen;
}

const shell = (t: number, command: string, cwd?: string): Step => ({ t, tool: 'bash', ...(cwd !== undefined ? { cwd } : {}), action: { kind: 'shell', command } });

describe('path contexts handed out again', () => {
  it("are the per-step construction's on every real corpus run, and unchanged by the steps after them", () => {
    let steps = 0;
    for (const run of corpusRuns()) {
      const seen = check(run.steps, run.name);
      for (const [paths, text] of seen) expect(JSON.stringify(paths)).toBe(text);
      steps += seen.length;
    }
    expect(steps).toBeGreaterThan(1000);
  });

  it('are right on a run that moves between more directories than are kept, learns its root half way, and comes back', () => {
    const dirs = ['src', 'src/a', 'tests', 'docs', 'build', '..', '/tmp', 'src'];
    const steps: Step[] = [];
    // No root known yet: relative cwds and `cd`s only.
    for (const d of dirs) steps.push(shell(steps.length, `cd ${d} && ls`, 'work'), shell(steps.length + 1, 'ls', d));
    // A `cd` to the root teaches it; then the same directories again, absolute and relative, and a view of a file.
    steps.push(shell(steps.length, 'cd /testbed && ls'));
    for (const d of dirs) steps.push(shell(steps.length, `cd ${d} && ls`, '/testbed'), shell(steps.length + 1, 'ls', `/testbed/${d}`), shell(steps.length + 2, 'cat x.py', 'work'));
    steps.push({ t: steps.length, tool: 'str_replace_editor', cwd: '/testbed/src', action: { kind: 'view', path: '/testbed/src/a.py' } });
    const seen = check(steps, 'moving run');
    for (const [paths, text] of seen) expect(JSON.stringify(paths)).toBe(text);
    expect(new Set(seen.map(([p]) => JSON.stringify(p))).size).toBeGreaterThan(8);
  });
});
