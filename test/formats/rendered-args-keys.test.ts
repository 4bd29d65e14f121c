/**
 * A SWE-agent action's `--KEY VALUE` pairs become the step's arguments whatever KEY is: `--__proto__ x` was dropped
 * (assigning a string to `__proto__` sets no property), so the step lost what the log shows (red-team round 7).
 */
import { describe, expect, it } from 'vitest';
import { renderedToolArgs } from '../../src/formats/shell-split.js';

describe('renderedToolArgs', () => {
  it('keeps an argument named as an Object.prototype member as an own property', () => {
    const args = renderedToolArgs('str_replace_editor create --__proto__ x --constructor y --file_text z', ['command']);
    expect(Object.keys(args)).toEqual(['command', '__proto__', 'constructor', 'file_text']);
    expect(JSON.parse(JSON.stringify(args))).toEqual(JSON.parse('{"command":"create","__proto__":"x","constructor":"y","file_text":"z"}'));
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect({}.constructor).toBe(Object);
  });

  it('reads the usual arguments as before', () => {
    const args = renderedToolArgs('str_replace_editor view /a.py --view_range "[3, 9]" --insert_line 4', ['command', 'path']);
    expect(args).toEqual({ command: 'view', path: '/a.py', view_range: [3, 9], insert_line: 4 });
  });
});
