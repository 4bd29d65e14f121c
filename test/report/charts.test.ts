import { describe, expect, it } from 'vitest';
import { shortLabel } from '../../src/report/render/charts.js';

describe('chart labels', () => {
  it('keep the last path segment of a model name and cap the length', () => {
    expect(shortLabel('openai/accounts/fireworks/models/qwen3-coder-480b-a35b-instruct')).toBe('qwen3-coder-480b-a35b-instruct');
    expect(shortLabel('deepseek/deepseek-chat')).toBe('deepseek-chat');
    expect(shortLabel('gpt-5-2025-08-07')).toBe('gpt-5-2025-08-07');
    const long = shortLabel('20240825_SWE-agent_gpt-4o-mini-2024-07-18-with-a-long-suffix');
    expect(long).toHaveLength(36);
    expect(long.endsWith('…')).toBe(true);
  });
});
