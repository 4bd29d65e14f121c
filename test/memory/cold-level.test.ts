/**
 * A file gone cold on the step path is deflated at the idle compaction's level (bench/README.md, "mem23"): ~10 % fewer
 * bytes than zlib's fastest level for the corpus's texts, and an idle session's compaction then leaves it as it is
 * (no inflate and deflate again at a higher level).
 */
import { describe, expect, it } from 'vitest';
import { COLD_MIN_CHARS, COLD_STEPS } from '../../src/core/state/cold-files.js';
import { COLD_LEVEL, COMPACT_LEVEL } from '../../src/core/memory/packed-text.js';
import { ShadowWorkspace } from '../../src/core/state/shadow-workspace.js';
import { zlibCalls } from './zlib-calls.js';

const zlib = process.getBuiltinModule('node:zlib');

/** `f()` with the zlib level of each deflate it made. */
function deflateLevels(f: () => void): Array<number | undefined> {
  const levels: Array<number | undefined> = [];
  const deflate = zlib.deflateRawSync;
  zlib.deflateRawSync = (...args: Parameters<typeof deflate>) => {
    levels.push(args[1]?.level);
    return deflate(...args);
  };
  try {
    f();
  } finally {
    zlib.deflateRawSync = deflate;
  }
  return levels;
}

describe('cold files are deflated at the idle compaction level', () => {
  it('deflates a file gone cold once, at COMPACT_LEVEL, and an idle compaction does not deflate it again', () => {
    expect(COLD_LEVEL).toBe(COMPACT_LEVEL);
    const lines = Array.from({ length: 90 }, (_, i) => `    level_${i % 9} = compacted(level_${i % 4}, ${i})  # gone cold`);
    const text = lines.join('\n');
    expect(text.length).toBeGreaterThanOrEqual(COLD_MIN_CHARS);
    const ws = new ShadowWorkspace();
    ws.setText('a.py', `${text}\n`);
    ws.setText('b.py', 'y = 2\n');
    ws.settle();
    const levels = deflateLevels(() => {
      for (let i = 0; i < COLD_STEPS + 1; i++) {
        ws.prefix('b.py');
        ws.settle();
      }
    });
    expect(levels).toEqual([COMPACT_LEVEL]);
    // The session goes idle: a.py is deflated already at the compaction's level (b.py is too short to deflate).
    const idle = zlibCalls(() => ws.compact());
    expect([idle.deflates, idle.inflates]).toEqual([0, 0]);
    const read = zlibCalls(() => ws.prefix('a.py'));
    expect(read.value).toEqual({ text, lines: 90 });
    expect(read.inflates).toBe(1);
  });
});
