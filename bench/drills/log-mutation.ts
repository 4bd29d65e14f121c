/**
 * Mutated-log drill: real logs of every format (the corpus) mutated at random (truncated, bytes replaced,
 * lines dropped or repeated, a JSON value swapped for something hostile: deep nesting, a huge string,
 * prototype-named keys, the wrong type; two logs glued) and read by every parser, auto-detected and forced,
 * then scored when steps come out. Nothing may throw or hang; a log that is not JSON must be refused with
 * the line and column, and every diagnostic must say where (`line 12`, `event 40`, ...).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { scoreSteps } from '../../src/core/scorer.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { seededRandom, type Random } from '../../src/core/stats/rng.js';
import { FORMAT_NAMES, parseTrajectoryText, type FormatName } from '../../src/formats/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { listedFiles } from '../corpus.js';

export interface MutationOptions {
  corpus: string;
  /** Mutations of each file. */
  perFile: number;
  /** Files of the corpus used (every one when undefined), taken evenly across formats. */
  files?: number;
  seed?: number;
}

export interface MutationResult {
  files: number;
  runs: number;
  /** Parses (auto and forced) that gave steps, and the steps scored. */
  parsed: number;
  steps: number;
  refused: number;
  /** Slowest single run (parse with every parser + scoring), ms. */
  maxMs: number;
  /** Problems found: a throw, an invalid-JSON refusal without a position, a diagnostic without one. */
  problems: string[];
}

const HOSTILE_VALUES: Array<() => unknown> = [
  () => null,
  () => -1,
  () => 1e308,
  () => '',
  () => [],
  () => ({}),
  () => 'x'.repeat(200_000),
  () => JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}, "toString": 5}') as unknown,
  () => {
    let v: unknown = 1;
    for (let i = 0; i < 200; i++) v = [v];
    return v;
  },
  () => ({ role: 'assistant', content: [{ text: null }], tool_calls: [{ function: { arguments: '{"command": [' } }] }),
  () => ({ action: 'run', args: { command: 'if true; then '.repeat(3000) }, observation: 7 }),
];

/** One mutation of `text`, described. */
function mutate(text: string, other: string, rand: Random): { text: string; how: string } {
  const at = (n: number): number => Math.floor(rand() * n);
  switch (at(7)) {
    case 0: {
      const cut = at(text.length);
      return { text: text.slice(0, cut), how: `truncated at ${cut}` };
    }
    case 1: {
      const chars = ['"', '{', '}', '[', ']', ',', ':', '\\', '\n', '\0', '\ud800', 'é', ' '];
      const out = text.split('');
      const n = 1 + at(20);
      for (let i = 0; i < n; i++) out[at(out.length)] = chars[at(chars.length)]!;
      return { text: out.join(''), how: `${n} characters replaced` };
    }
    case 2: {
      const lines = text.split('\n');
      const i = at(lines.length);
      lines.splice(i, 1);
      return { text: lines.join('\n'), how: `line ${i + 1} dropped` };
    }
    case 3: {
      const lines = text.split('\n');
      const i = at(lines.length);
      lines.splice(i, 0, lines[i] ?? '', lines[at(lines.length)] ?? '');
      return { text: lines.join('\n'), how: `lines repeated at ${i + 1}` };
    }
    case 4:
    case 5: {
      // A JSON value swapped for a hostile one (in the document, or in one JSON Lines record).
      const lines = text.split('\n');
      const single = lines.length < 3;
      const li = single ? -1 : at(lines.length);
      let doc: unknown;
      try {
        doc = JSON.parse(single ? text : lines[li]!);
      } catch {
        return { text: `${text}}`, how: 'a brace appended' };
      }
      const nodes: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = [];
      const walk = (v: unknown, depth: number): void => {
        if (depth > 12 || typeof v !== 'object' || v === null) return;
        for (const [k, c] of Object.entries(v)) {
          nodes.push({ parent: v as Record<string, unknown>, key: Array.isArray(v) ? Number(k) : k });
          walk(c, depth + 1);
        }
      };
      walk(doc, 0);
      const target = nodes[at(nodes.length)];
      const value = HOSTILE_VALUES[at(HOSTILE_VALUES.length)]?.();
      if (target) (target.parent as Record<string | number, unknown>)[target.key] = value;
      const replaced = JSON.stringify(doc);
      if (single) return { text: replaced, how: `value at ${String(target?.key)} replaced` };
      lines[li] = replaced;
      return { text: lines.join('\n'), how: `line ${li + 1}: value at ${String(target?.key)} replaced` };
    }
    default: {
      const cut = at(text.length);
      return { text: text.slice(0, cut) + other.slice(at(other.length)), how: 'glued to another log' };
    }
  }
}

/** Files evenly across the formats' folders of the corpus (every one when `n` is undefined). */
function pick(files: string[], n: number | undefined): string[] {
  if (n === undefined || n >= files.length) return files;
  const step = files.length / n;
  return Array.from({ length: n }, (_, i) => files[Math.floor(i * step)]!);
}

export function runLogMutation(o: MutationOptions): MutationResult {
  // Seeded (core's mulberry32), so a failing mutation can be replayed.
  const rand = seededRandom(o.seed ?? 1);
  const files = pick(listedFiles(o.corpus), o.files);
  const texts = files.map((f) => readFileSync(path.join(o.corpus, f), 'utf8'));
  const analyzers = defaultAnalyzers();
  const result: MutationResult = { files: files.length, runs: 0, parsed: 0, steps: 0, refused: 0, maxMs: 0, problems: [] };
  const problem = (what: string): void => {
    if (result.problems.length < 20) result.problems.push(what);
  };
  texts.forEach((original, fi) => {
    for (let m = 0; m < o.perFile; m++) {
      const { text, how } = mutate(original, texts[(fi + 1) % texts.length]!, rand);
      const name = `${files[fi]} (${how})`;
      const began = performance.now();
      for (const format of ['auto', ...FORMAT_NAMES] as Array<FormatName | 'auto'>) {
        result.runs++;
        try {
          const r = parseTrajectoryText(text, format, 'input');
          if (!r.ok) {
            result.refused++;
            if (r.error.message.includes('invalid JSON') && !/line \d+, column \d+/.test(r.error.message)) problem(`${name} [${format}]: no position in "${r.error.message.slice(0, 200)}"`);
            continue;
          }
          for (const d of r.value.diagnostics) if (!/\S/.test(d.at)) problem(`${name} [${format}]: a diagnostic without a position: ${d.message.slice(0, 200)}`);
          if (r.value.steps.length === 0) continue;
          result.parsed++;
          result.steps += r.value.steps.length;
          if (format === 'auto') scoreSteps(r.value.steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers });
        } catch (error) {
          problem(`${name} [${format}]: threw ${(error as Error).stack?.split('\n').slice(0, 3).join(' | ') ?? String(error)}`);
        }
      }
      result.maxMs = Math.max(result.maxMs, performance.now() - began);
    }
  });
  return result;
}
