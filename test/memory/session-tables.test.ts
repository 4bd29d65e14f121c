/**
 * mem20 (bench/README.md, "the seventeenth memory pass"). The labeler keeps a file's script scan only when it finds
 * something, and makes its map with the first such scan. A history that keeps every scan, empty ones too (the form
 * before mem20), labels every real run alike. Key tables grow 8, 12, 16, 24, ... slots (by halves, not doubling) and
 * answer as a `Map` at every size. (That the variant table now keeps the state's pooled hash string, not md5's copy,
 * cannot be seen from JavaScript: string identity is not observable; bench/README.md gives its heap figure.)
 */
import { describe, expect, it } from 'vitest';
import { Labeler } from '../../src/core/labeler/labeler.js';
import { KeyTable } from '../../src/core/memory/key-table.js';
import { EMPTY_SCAN, type PythonScan } from '../../src/core/labeler/python-writes.js';
import { stepFailed } from '../../src/core/state/failure.js';
import type { Label, Step } from '../../src/core/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const analyzers = defaultAnalyzers();

/** A labeler whose history keeps every scan, empty ones too, in a `Map` from the start (the form before mem20). */
function keepingEveryScan(): { labeler: Labeler; emptyRead: () => number } {
  const labeler = new Labeler(analyzers.shell);
  const scans = new Map<string, PythonScan>();
  let emptyRead = 0;
  Object.assign(labeler.history, {
    script: (file: string) => {
      const scan = scans.get(file);
      if (scan === EMPTY_SCAN) emptyRead++;
      return scan;
    },
    setScript: (file: string, scan: PythonScan) => void scans.set(file, scan),
  });
  return { labeler, emptyRead: () => emptyRead };
}

function labels(labeler: Labeler, steps: readonly Step[]): Label[] {
  return steps.map((s) => labeler.label(s, stepFailed(s)).label);
}

const write = (t: number, path: string, text: string): Step => ({ t, tool: 'str_replace_editor', action: { kind: 'edit', op: 'create', path, text }, observation: '' });
const shell = (t: number, command: string): Step => ({ t, tool: 'bash', action: { kind: 'shell', command }, observation: '', cwd: '/testbed' });

describe('script scans (mem20)', () => {
  it('keeps no empty scan, and no map before a scan finds something', () => {
    const labeler = new Labeler(analyzers.shell);
    const h = labeler.history;
    labels(labeler, [write(0, '/testbed/a.py', 'print(1)\n'), shell(1, 'python a.py')]);
    expect(h.script('a.py')).toBeUndefined();
    expect((h as unknown as { scans: unknown }).scans).toBeUndefined();
    labels(labeler, [write(2, '/testbed/b.py', "open('src/m.py', 'w').write('x')\n")]);
    expect(h.script('b.py')).not.toBeUndefined();
    expect(h.script('b.py')!.opens).toHaveLength(1);
    // Written again with text that opens nothing: the earlier scan goes.
    labels(labeler, [write(3, '/testbed/b.py', 'print(2)\n')]);
    expect(h.script('b.py')).toBeUndefined();
  });

  it('labels every corpus run as a history keeping every scan does', () => {
    let runs = 0;
    let emptyReads = 0;
    for (const run of corpusRuns()) {
      const old = keepingEveryScan();
      expect(labels(new Labeler(analyzers.shell), run.steps)).toEqual(labels(old.labeler, run.steps));
      emptyReads += old.emptyRead();
      runs++;
    }
    expect(runs).toBeGreaterThan(50);
    // The runs do run scripts whose kept scan was empty (the case the change reads differently).
    expect(emptyReads).toBeGreaterThan(0);
  });
});

describe('key tables grow by halves (mem20)', () => {
  it('go 8, 12, 16, 24, 32, 48, 64, 96, 128 slots and answer as a Map through every size', () => {
    const table = new KeyTable(8, 'any');
    const model = new Map<string, number>();
    const sizes: number[] = [];
    for (let i = 0; i < 110; i++) {
      const key = `src/pkg/sub/module_${i % 96}.py`;
      expect(table.swap(key, i)).toBe(model.get(key));
      model.set(key, i);
      const slots = (table as unknown as { keys: unknown[] }).keys.length;
      if (sizes.at(-1) !== slots) sizes.push(slots);
      for (const [k, v] of model) expect(table.get(k)).toBe(v);
    }
    expect(sizes).toEqual([8, 12, 16, 24, 32, 48, 64, 96, 128]);
    expect(table.size).toBe(96);
    let seen = 0;
    table.forEach((k, v) => {
      expect(model.get(k)).toBe(v);
      seen++;
    });
    expect(seen).toBe(96);
  });
});
