/**
 * docs/evidence.md against the code it describes (and docs/method.md's list of the evidence the bundled forecaster
 * reads). Its opening said that nothing read the evidence while the bundled forecaster read five values; here the
 * cheap parts are recomputed so that the doc cannot silently go stale again: the values table against
 * EVIDENCE_NAMES, the bundled forecaster's values against data/forecast.json, the caps and the output window against
 * the constants, the corpus outputs that need no regular expression (recounted on the test corpus), and the
 * interface example type-checked against today's exports. The tables of AUROCs need ../shared and a bootstrap
 * (bench/evidence.ts, ~20 s): they are not recomputed here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MAX_TRACE_PATHS } from '../../src/core/evidence/errors.js';
import { EVIDENCE_NAMES, evidenceNeeds } from '../../src/core/evidence/evidence.js';
import { scanOutput } from '../../src/core/evidence/output-lines.js';
import { MAX_PATCH_FILES } from '../../src/core/evidence/patch-tracker.js';
import { OUTPUT_WINDOW, READ } from '../../src/core/evidence/step-evidence.js';
import { MAX_EDITED_FILES, MAX_READ_FILES, MAX_TRACE_FILES } from '../../src/core/evidence/target-tracker.js';
import { MAX_RUN_KEYS } from '../../src/core/evidence/test-trackers.js';
import { isEvidence } from '../../src/core/forecast/features.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const DOC = readFileSync(path.join(ROOT, 'docs/evidence.md'), 'utf8');
/** The doc with its line breaks and indents folded, for sentences that wrap. */
const FLAT = DOC.replace(/\s+/g, ' ');
const METHOD = readFileSync(path.join(ROOT, 'docs/method.md'), 'utf8').replace(/\s+/g, ' ');
const FORECAST = JSON.parse(readFileSync(path.join(ROOT, 'data/forecast.json'), 'utf8')) as { models: Array<{ features: string[] }> };

const section = (title: string): string => {
  const at = DOC.indexOf(`\n${title}\n`);
  if (at < 0) throw new Error(`docs/evidence.md has no section "${title}"`);
  const next = DOC.indexOf('\n## ', at + title.length + 2);
  return DOC.slice(at, next < 0 ? undefined : next);
};
const grouped = (n: number) => n.toLocaleString('en-US');
/** The doc holds `text` (folded as FLAT is); a failure names the sentence, not the whole doc. */
const says = (text: string) => expect(FLAT.includes(text), `docs/evidence.md should say: ${text}`).toBe(true);
const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

describe('docs/evidence.md matches the code', () => {
  it("lists every value of EVIDENCE_NAMES in the values table, in the vector's order", () => {
    const names = section('## The values')
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .flatMap((l) => [...l.split('|')[1]!.matchAll(/`(\w+)`/g)].map((m) => m[1]!));
    expect(names).toEqual([...EVIDENCE_NAMES]);
  });

  it("names the evidence values the bundled forecaster reads (data/forecast.json's models)", () => {
    const lists = new Set(FORECAST.models.map((m) => JSON.stringify(m.features.filter(isEvidence))));
    expect(lists.size, 'the models of data/forecast.json read different evidence: the doc says one list').toBe(1);
    const read = JSON.parse([...lists][0]!) as string[];
    const quoted = /The bundled forecaster \(`--forecast bundled`, data\/forecast\.json, the same list in each of its (\d+) models\) reads (\w+) of them: ((?:`\w+`(?:, )?)+)/.exec(FLAT);
    expect(quoted, "the opening's sentence on the bundled forecaster").not.toBeNull();
    expect(Number(quoted![1])).toBe(FORECAST.models.length);
    expect(quoted![2]).toBe(NUMBER_WORDS[read.length]);
    expect([...quoted![3]!.matchAll(/`(\w+)`/g)].map((m) => m[1])).toEqual(read);
    // docs/method.md section 18 names them too.
    const method = /the bundled one reads ((?:`\w+`(?:, )?)+);/.exec(METHOD);
    expect(method, "docs/method.md section 18's sentence on the bundled forecaster").not.toBeNull();
    expect([...method![1]!.matchAll(/`(\w+)`/g)].map((m) => m[1])).toEqual(read);
  });

  it("says which readers the bundled forecaster's values need (the cost section)", () => {
    const needs = evidenceNeeds(FORECAST.models[0]!.features);
    // The sentence: the test-summary reader and the patch, and no error reader.
    says('(the bundled one) gets the test-summary reader and the patch, and no error reader');
    expect(needs.read & READ.tests).not.toBe(0);
    expect(needs.read & READ.patch).not.toBe(0);
    expect(needs.read & (READ.errors | READ.traces)).toBe(0);
  });

  it("gives the trackers' caps and the output window of the code", () => {
    const caps =
      `every set of names is capped (${MAX_RUN_KEYS} run keys, ${MAX_PATCH_FILES} changed files, ${MAX_EDITED_FILES} edited files, ` +
      `${MAX_READ_FILES} files read, ${MAX_TRACE_FILES} files named by errors, ${MAX_TRACE_PATHS} paths taken from one error;`;
    says(caps);
    says(`Only the last ${OUTPUT_WINDOW / 1024} KB of a command's output are read`);
  });

  it('counts the corpus outputs that need no regular expression as the line scan does today', () => {
    const runs = corpusRuns();
    const outputs = runs.flatMap((r) =>
      r.steps.filter((s) => s.action.kind === 'shell' || s.action.kind === 'code' || s.action.kind === 'other').map((s) => (s.observation ?? '').slice(-OUTPUT_WINDOW)),
    );
    const none = outputs.filter((t) => scanOutput(t) === 0).length;
    const pct = Math.round((100 * none) / outputs.length);
    says(`${grouped(none)} of the ${grouped(outputs.length)} command outputs of the ${runs.length} corpus runs (${pct} %) need no regular expression at all`);
  });

  it("type-checks the interface example against today's exports (as a script at the repository's root)", () => {
    const block = /## The interface\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(DOC);
    expect(block, 'the ts block of "## The interface"').not.toBeNull();
    const text = block![1]!;
    const file = path.join(ROOT, 'docs-evidence-example.ts');
    const config = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), (f) => ts.sys.readFile(f)).config, ts.sys, ROOT);
    const options = { ...config.options, noEmit: true };
    const host = ts.createCompilerHost(options);
    const getSourceFile = host.getSourceFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const readFile = host.readFile.bind(host);
    host.getCurrentDirectory = () => ROOT;
    host.fileExists = (f) => f === file || fileExists(f);
    host.readFile = (f) => (f === file ? text : readFile(f));
    host.getSourceFile = (f, lang, ...rest) => (f === file ? ts.createSourceFile(f, text, lang) : getSourceFile(f, lang, ...rest));
    const program = ts.createProgram({ rootNames: [file], options, host });
    const source = program.getSourceFile(file)!; // the root file, read through the host above
    const problems = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
    // It must read the evidence the way the scorer does, not some other way that happens to compile.
    expect(text).toContain("from './src/core/evidence/evidence.js'");
    expect(text).toContain('ev.add(step, state, label)');
  });

  // Audit 13: the evidence bench drew its intervals by resampling runs, train resamples tasks, so the same figure (run
  // length alone) read [0.58, 0.71] here and [0.56, 0.73] in docs/forecast.md for SWE-agent 0.x's three-trial tasks.
  it("gives run length alone the figures and intervals docs/forecast.md's held-out table gives it (tasks resampled in both)", () => {
    const FORECAST_DOC = readFileSync(path.join(ROOT, 'docs/forecast.md'), 'utf8');
    const cells = (line: string) => line.split('|').map((c) => c.trim());
    const row = DOC.split('\n').find((l) => l.startsWith('| run length alone (shorter wins) |'));
    expect(row, "the end-of-run table's run length row").toBeDefined();
    const header = DOC.split('\n').find((l) => l.startsWith('| evidence (expected direction) |'))!; // the bench's own header (audit26 copied its table whole)
    const sources = cells(header)
      .slice(2, 5)
      .map((c) => c.replace(/ \(.*$/, ''));
    const ours = cells(row!).slice(2, 6);
    // docs/forecast.md's bundled table: source | pass / fail | pPass | run length, shorter wins | ...
    const lines = FORECAST_DOC.split('\n');
    const head = lines.findIndex((l) => l.startsWith('| source ') && l.includes('| run length, shorter wins |'));
    expect(head, "docs/forecast.md's held-out table").toBeGreaterThan(0);
    const table = lines.slice(
      head + 2,
      lines.findIndex((l, i) => i > head && !l.startsWith('|')),
    );
    const theirs = (name: string): string => {
      const line = table.find((l) => l.startsWith(`| ${name} `));
      expect(line, `docs/forecast.md's row for ${name}`).toBeDefined();
      return cells(line!)[4]!;
    };
    const alias = (s: string) => s.replace('openai/gpt-5-mini', 'gpt-5-mini');
    expect(sources.map((s, i) => [s, ours[i]])).toEqual(sources.map((s) => [s, theirs(alias(s))]));
    expect(ours[3]).toBe(theirs('mean within source (5 sources)'));
  });

  // audit26: the pooled AUROC was printed bare and "not 0" as a share without its n; bench/evidence.ts prints both now.
  it("the end-of-run table gives the pooled AUROC its interval and 'not 0' its n", () => {
    const lines = DOC.split('\n');
    const head = lines.findIndex((l) => l.startsWith('| evidence (expected direction) |'));
    expect(head).toBeGreaterThan(0);
    const rows = lines.slice(
      head + 2,
      lines.findIndex((l, i) => i > head && !l.startsWith('|')),
    );
    expect(rows.length).toBeGreaterThan(15);
    for (const r of rows) {
      const c = r.split('|').map((x) => x.trim());
      expect(c.at(-3), r).toMatch(/^\d\.\d{3} \[\d\.\d\d, \d\.\d\d\] \(\d\.\d{3}\)$/);
      expect(c.at(-2), r).toMatch(/^\d+ \/ \d+ \(\d+ %\)$/);
    }
  });
});
