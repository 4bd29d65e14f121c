import { describe, expect, it } from 'vitest';
import { detectFormat, parseInstancesText, parseTrajectoryText } from '../../src/formats/index.js';
import { corpusJson, corpusText, NON_TRAJECTORIES, TRAJECTORIES } from './corpus.js';

describe('every corpus trajectory parses with the step count of method.md section 1', () => {
  it.each(TRAJECTORIES.map((t) => [t.file, t.format, t.steps] as const))('%s', (file, format, steps) => {
    const r = parseInstancesText(corpusText(file), 'auto', file);
    if (!r.ok) throw r.error;
    expect(r.value.map((p) => p.format)).toEqual(steps.map(() => format));
    expect(r.value.map((p) => p.steps.length)).toEqual(steps);
    expect(r.value.flatMap((p) => p.diagnostics)).toEqual([]);
    for (const p of r.value) expect(p.steps.map((s) => s.t)).toEqual(p.steps.map((_, i) => i));
  });
});

describe('format detection', () => {
  it.each(TRAJECTORIES.map((t) => [t.file, t.format] as const))('detects %s', (file, format) => {
    expect(detectFormat(corpusJson(file))).toBe(format);
  });

  it.each(NON_TRAJECTORIES.map((f) => [f]))('rejects the non-trajectory %s with unknown_format', (file) => {
    expect(detectFormat(corpusJson(file))).toBeUndefined();
    const r = parseTrajectoryText(corpusText(file), 'auto', file);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('unknown_format');
      expect(r.error.message).toContain('tried steplens, openhands, swe-agent, mini-swe-agent, atif');
      expect(r.error.message).toContain(file);
    }
  });

  it('names the keys of an unknown object in the error', () => {
    const r = parseTrajectoryText(corpusText(NON_TRAJECTORIES[0]!), 'auto', 'run.json');
    expect(r.ok ? '' : r.error.message).toMatch(/^run\.json: could not detect the log format .*a JSON object with keys total_instances, submitted_instances/);
  });
});
