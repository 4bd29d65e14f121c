/**
 * A mini-swe-agent assistant message's command block is found in linear time: the action regex
 * ```` /```(?:bash|mswea_bash_command)\s*\n([\s\S]*?)\n```/g ```` retried every newline of the blanks after a fence,
 * each time to the end of the text (16 KiB of newlines after a fence: 40 ms, 64 KiB 0.64 s, a megabyte minutes), and
 * every fence with no close scanned to the end again (256 KiB of them: 1.1 s). Streamed messages (a 1 MiB frame) and
 * logs posted to /v1/score (64 MiB) reach it. `bashBlocks` is checked against the regex on every string of the corpus
 * logs and on small generated texts, then fed a megabyte run. No timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { parseTrajectoryText } from '../../src/formats/index.js';
import { bashBlocks } from '../../src/formats/mini-swe-agent.js';
import { corpusStrings } from '../fixtures/corpus-runs.js';
import { generated } from '../labeler/helpers.js';

const OLD = /```(?:bash|mswea_bash_command)\s*\n([\s\S]*?)\n```/g;
const MB = 1 << 20;
const old = (text: string) => [...text.matchAll(OLD)].map((m) => ({ index: m.index, body: m[1] }));

describe('command blocks of mini-swe-agent messages', () => {
  it('are the action regex matches, on every string of the corpus logs', () => {
    const texts = corpusStrings();
    expect(texts.length).toBeGreaterThan(10_000);
    let blocks = 0;
    for (const text of texts) {
      const want = old(text);
      blocks += want.length;
      expect(bashBlocks(text), text.slice(0, 200)).toEqual(want);
      expect(bashBlocks(text, 2)).toEqual(want.slice(0, 2));
    }
    expect(blocks).toBeGreaterThan(100);
  });

  it('... and on generated texts', () => {
    const parts = ['```', '```bash', '```mswea_bash_command', 'bash', '\n', '\n```', ' ', '\t', '\r', '\u2028', 'x', '`', 'ls'];
    for (const text of generated(parts, 60_000)) expect(bashBlocks(text), JSON.stringify(text)).toEqual(old(text));
  });

  it('a megabyte of newlines after a fence, or of fences, is read (the regex ran for minutes)', () => {
    expect(bashBlocks(`\`\`\`bash${'\n'.repeat(MB)}`)).toEqual([]);
    expect(bashBlocks('```bash\nx'.repeat(MB / 9))).toEqual([]);
    expect(bashBlocks(`\`\`\`bash${'\n'.repeat(MB)}\`\`\``)).toEqual([{ index: 0, body: '' }]);
    expect(bashBlocks(`\`\`\`bash${'\n'.repeat(MB)}ls\n\`\`\``)).toEqual([{ index: 0, body: 'ls' }]);
    const log = (content: string) => JSON.stringify({ trajectory_format: 'mini-swe-agent-1', messages: [{ role: 'assistant', content }] });
    const parsed = parseTrajectoryText(log(`THOUGHT: look\n\n\`\`\`bash${'\n'.repeat(MB)}`), 'auto');
    expect(parsed.ok && parsed.value.steps.map((s) => s.action.kind)).toEqual(['none']);
  });
});
