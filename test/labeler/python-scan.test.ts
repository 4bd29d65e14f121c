/**
 * The labeler keeps, for each file the agent wrote, the scan of its text instead of the text: a later
 * `python file` run is read from the scans joined (the run's line, then the script). On every real corpus
 * text, the joined scans give what a scan of the texts joined by newlines gives.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_SCAN, fileUseOfScans, pythonScan, scanPythonFileUse } from '../../src/core/labeler/python-writes.js';
import { corpusActionTexts } from '../fixtures/corpus-runs.js';

describe('Python scans kept instead of texts', () => {
  it('joined scans equal the scan of the joined texts, on every corpus text and the two after it', () => {
    let compared = 0;
    let withWrites = 0;
    for (const run of corpusActionTexts()) {
      for (let i = 0; i < run.length; i++) {
        const parts = run.slice(i, i + 3);
        for (let n = 1; n <= parts.length; n++) {
          const want = scanPythonFileUse(parts.slice(0, n).join('\n'));
          expect(fileUseOfScans(parts.slice(0, n).map(pythonScan))).toEqual(want);
          compared++;
          if (want.writes.length > 0) withWrites++;
        }
      }
    }
    expect(compared).toBeGreaterThan(4000);
    expect(withWrites).toBeGreaterThan(100);
  });

  it('a path assigned in one text names the file another opens, the last assignment winning', () => {
    const script = pythonScan("TARGET = 'pkg/old.py'\nTARGET = 'pkg/mod.py'\n");
    const line = pythonScan("python - <<EOF\nwith open(TARGET, 'w') as f: f.write(src)\nEOF");
    expect(fileUseOfScans([line, script])).toEqual({ writes: ['pkg/mod.py'], reads: [] });
    expect(fileUseOfScans([line])).toEqual({ writes: [], reads: [] });
  });

  it('a text that opens and assigns nothing scans to the shared empty scan', () => {
    expect(pythonScan('print("hello")\n')).toBe(EMPTY_SCAN);
    expect(pythonScan("x = 'a b'\nopen('has space', 'w')")).toBe(EMPTY_SCAN);
  });
});

describe('a text scanned twice in a row', () => {
  it('gives the same scan object, and a text after another its own scan', () => {
    const script = "import os\np = 'pkg/mod.py'\nopen(p, 'w').write(open('pkg/other.py').read())\n";
    const other = "out = 'build/log.txt'\nopen(out, 'a')\n";
    const first = pythonScan(script);
    expect(first).not.toBe(EMPTY_SCAN);
    // A new string equal to the text (as the next read of a frame's command is): the scan of the step before.
    expect(pythonScan(JSON.parse(JSON.stringify(script)) as string)).toBe(first);
    const second = pythonScan(other);
    expect(second).not.toBe(first);
    expect(second.assigns).toEqual(['out', 'build/log.txt']);
    const again = pythonScan(script);
    expect(again).toEqual(first);
  });
});
