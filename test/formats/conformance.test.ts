/**
 * The one conformance suite of the format-parser extension point (`FormatParser`,
 * src/formats/types.ts), run for every name in FORMAT_NAMES on real logs: a format
 * cannot be added without a real fixture here (the table is typed by FormatName and
 * checked at run time). Bad-input behaviour has its own FORMAT_NAMES-driven suite
 * (robustness.test.ts); per-format details are in spot-checks.test.ts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectFormat, FORMAT_NAMES, getParser, type FormatName } from '../../src/formats/index.js';
import { stepSchema } from '../../src/formats/step-schema.js';
import { corpusJson } from './corpus.js';

const CM = 'christsakm__Trajectories/GOOD_EXAMPLES/';
const HB = 'sachiny0106__Xelron_harbor-copy/';

/** Real runs per format (paths under the corpus, or `test:` + a path under test/), each variant the parser reads. */
const FIXTURES: Record<FormatName, readonly string[]> = {
  // `steplens convert` of the SWE-agent run christsakm .../getmoto__moto-6510/trace_03_qwen3-coder (see labels.test.ts).
  steplens: ['test:snapshots/fixtures/moto-6510-qwen3.steplens.jsonl'],
  openhands: [
    'gsmoon97__swe-agent-eval/evaluation/python/verified/20250329_OpenHands_Claude-3.5-Sonnet(Oct)/trajs/django__django-11099/Claude-3.5-Sonnet(Oct)-1743405661.1259937.json',
    'OpenHands__OpenHands/tests/runtime/trajs/basic.json',
  ],
  'swe-agent': [
    `${CM}getmoto__moto-6510/trace_01_gpt-5-2025-08-07/getmoto__moto-6510.traj`,
    'multi-swe-bench__experiments/evaluation/java/verified/20240825_SWE-agent_gpt-4o-2024-05-13/trajs/fasterxml__jackson-core-1142.traj',
  ],
  'mini-swe-agent': [
    'gruckion__mini-swe-agent/swebench_results/20251118_gemini-3-pro-74pct/trajs/django__django-11099/django__django-11099.traj.json',
    'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json',
  ],
  atif: [`${HB}tests/golden/terminus_2/hello-world-context-summarization.trajectory.json`, 'OpenAgentsInc__openagents/results/trajectories/regex-log/20251211-161750-ba4ddb16/trajectory.json'],
};

function fixtureDoc(ref: string): unknown {
  if (!ref.startsWith('test:')) return corpusJson(ref);
  const text = readFileSync(fileURLToPath(new URL(`../${ref.slice(5)}`, import.meta.url)), 'utf8');
  return ref.endsWith('.jsonl')
    ? text
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as unknown)
    : (JSON.parse(text) as unknown);
}

describe('every format has a real fixture', () => {
  it('FORMAT_NAMES and the fixture table name the same formats', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual([...FORMAT_NAMES].sort());
    for (const format of FORMAT_NAMES) expect(FIXTURES[format].length, format).toBeGreaterThan(0);
  });
});

describe.each(FORMAT_NAMES.map((f) => [f]))('format parser conformance: %s', (format) => {
  const parser = getParser(format);

  it('is registered under its own name', () => {
    expect(parser.name).toBe(format);
  });

  describe.each(FIXTURES[format].map((f) => [f]))('%s', (ref) => {
    const doc = fixtureDoc(ref);

    it('is detected as this format, by its parser and by auto-detection', () => {
      expect(parser.detect(doc)).toBe(true);
      expect(detectFormat(doc)).toBe(format);
    });

    it('parses to valid steps numbered 0..n-1, without diagnostics', () => {
      const r = parser.parse(doc);
      expect(r.format).toBe(format);
      expect(r.diagnostics).toEqual([]);
      expect(r.steps.length).toBeGreaterThan(0);
      expect(r.steps.map((s) => s.t)).toEqual(r.steps.map((_, i) => i));
      for (const step of r.steps) {
        const valid = stepSchema.safeParse(step);
        expect(valid.success, `step ${step.t}: ${valid.error?.message ?? ''}`).toBe(true);
      }
    });

    it('streams events(doc) one by one into the same steps and diagnostics as parse(doc)', () => {
      const whole = parser.parse(doc);
      const stream = parser.stream();
      const steps = [];
      const diagnostics = [];
      for (const event of parser.events(doc)) {
        const out = stream.push(event);
        steps.push(...out.steps);
        diagnostics.push(...out.diagnostics);
      }
      const end = stream.end();
      expect([...steps, ...end.steps]).toEqual(whole.steps);
      expect([...diagnostics, ...end.diagnostics]).toEqual(whole.diagnostics);
    });

    it('is deterministic and leaves the document as it was', () => {
      const before = JSON.stringify(doc);
      const first = parser.parse(doc);
      expect(parser.parse(doc)).toEqual(first);
      expect(JSON.stringify(doc)).toBe(before);
    });
  });
});
