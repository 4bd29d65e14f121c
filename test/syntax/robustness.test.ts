import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createShellAnalyzer } from '../../src/syntax/index.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';

describe('robustness on arbitrary input', () => {
  const shell = createShellAnalyzer({ cacheSize: 10 });
  const shellish = fc.stringMatching(/^[a-z <>|&;'"$(){}\\\n=./0-9-]{0,60}$/);
  it('the shell analyzer never throws', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), shellish), (s) => {
        const p = shell.parse(s);
        expect(Array.isArray(p.commands)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
  it('the state builder labels any shell text', () => {
    fc.assert(
      fc.property(fc.array(shellish, { maxLength: 8 }), (cmds) => {
        const out = labelSteps(
          cmds.map((command, t) => ({ t, tool: 'bash', action: { kind: 'shell', command } })),
          defaultAnalyzers(),
        );
        expect(out).toHaveLength(cmds.length);
        for (const o of out) expect(['E', 'I', 'V', 'O']).toContain(o.state.stage);
      }),
      { numRuns: 200 },
    );
  });
});
