/** Label values from client-chosen names: bounded, and with no raw control or invisible format character (T76). */
import { describe, expect, it } from 'vitest';
import { labelValue, MAX_LABEL } from '../../src/server/metric-labels.js';

describe('labelValue', () => {
  it('keeps a plain name as it is', () => {
    expect(labelValue('mini-swe-agent 1.1')).toBe('mini-swe-agent 1.1');
    expect(labelValue('模型 é')).toBe('模型 é');
    expect(labelValue(undefined)).toBe('');
  });

  it('shows controls and zero-width characters as escapes (on the code before T76 they are kept raw)', () => {
    expect(labelValue('gpt\u200b-5\u202e\u001b[2J')).toBe('gpt\\u200b-5\\u202e\\u001b[2J');
    expect(labelValue('x'.repeat(200) + '\u200d')).not.toMatch(/\p{Cf}/u);
  });

  it('stays within the bound, and two long names that differ only past it stay apart', () => {
    const a = labelValue(`${'\u200b'.repeat(40)}a`);
    const b = labelValue(`${'\u200b'.repeat(40)}b`);
    expect(a.length).toBeLessThanOrEqual(MAX_LABEL);
    expect(a).not.toBe(b);
    expect(a).not.toMatch(/\p{Cf}/u);
  });
});
