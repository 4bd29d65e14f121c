/**
 * Reads trajectory text: one JSON document, or JSON Lines (one record per line). A bad JSON line
 * is reported as `line N: ...` and skipped; a single document that does not parse is a
 * `bad_input` error naming the source and the position.
 */
import { visit } from 'jsonc-parser';
import { SteplensError, err, ok, type Result } from '../errors.js';
import { instanceDocuments, parseDocument, parseInstances } from './registry.js';
import type { Diagnostic, FormatName, ParseResult } from './types.js';

export interface Loaded {
  doc: unknown;
  diagnostics: Diagnostic[];
  /** For JSON Lines: the 1-based line of each kept record. */
  lines?: number[];
}

/**
 * Offset of the first syntax error in `text`, from jsonc-parser's scanner (strict: no comments, no trailing
 * commas): Node 20's JSON.parse names no position for an unexpected token ("Unexpected token ']', ... is
 * not valid JSON"). Only called once JSON.parse has failed.
 */
function errorOffset(text: string): number | undefined {
  let first: number | undefined;
  visit(text, { onError: (_error, offset) => void (first ??= offset) }, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return first;
}

function position(text: string, e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const m = /position (\d+)/.exec(msg);
  const pos = m?.[1] !== undefined ? Number(m[1]) : /end of JSON input|Unterminated/i.test(msg) ? text.length : errorOffset(text);
  if (pos === undefined) return msg;
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const col = pos - before.lastIndexOf('\n');
  // `msg` is JSON.parse's message: it quotes at most ~10 characters of the text either side of the error.
  // eslint-disable-next-line regexp/no-super-linear-move -- at most 92 characters (measured, Node 20 and 24): 0.01 ms
  return `${msg.replace(/\s*\(line \d+ column \d+\)/, '')} (line ${line}, column ${col}${pos >= text.length ? ', end of input: truncated?' : ''})`;
}

/**
 * True when the lines cannot pass `load`'s JSON Lines rule (below): fewer than 2 non-empty lines, or a first
 * non-empty line that is not JSON and fewer than half the non-empty lines that could be objects. A line JSON.parse
 * reads as an object trims to `{...}`, so counting those bounds the objects from above: the rule's verdict, without
 * parsing every line.
 */
function cannotBeLines(lines: readonly string[]): boolean {
  let nonEmpty = 0;
  let couldBeObjects = 0;
  let first: string | undefined;
  for (const l of lines) {
    const t = l.trim();
    if (t === '') continue;
    nonEmpty++;
    first ??= l;
    if (t.startsWith('{') && t.endsWith('}')) couldBeObjects++;
  }
  if (nonEmpty < 2) return true;
  if (couldBeObjects * 2 >= nonEmpty) return false;
  try {
    JSON.parse(first!); // nonEmpty >= 2
    return false;
  } catch {
    return true;
  }
}

/** A text that is not one JSON document, read line by line as JSON Lines (see {@link lineRecord}). */
interface LinesRead {
  body: string;
  lines: string[];
  /** JSON.parse's error on the whole text. */
  error: unknown;
  records: unknown[];
  kept: number[];
  diagnostics: Diagnostic[];
  nonEmpty: number;
  objects: number;
}

/** The text's one document, or its lines to read as JSON Lines; an empty text or a broken document refused. */
function loadStart(text: string, source: string): Result<Loaded | LinesRead> {
  const body = text.replace(/^\uFEFF/, '');
  if (body.trim() === '') return err(new SteplensError('bad_input', `${source}: the input is empty`));
  try {
    return ok({ doc: JSON.parse(body) as unknown, diagnostics: [] });
  } catch (e) {
    const lines = body.split('\n');
    // A broken pretty-printed document is refused before its lines are parsed one by one: each line's failed
    // JSON.parse made an exception and a diagnostic, 22,123 of them and ~150 ms for a 2.6 MB SWE-agent log with one
    // brace appended (160-840 ms a parser under load in the logs drill). Same verdict: see `cannotBeLines`.
    if (cannotBeLines(lines)) return err(new SteplensError('bad_input', `${source}: invalid JSON: ${position(body, e)}`, { cause: e }));
    return ok({ body, lines, error: e, records: [], kept: [], diagnostics: [], nonEmpty: 0, objects: 0 });
  }
}

/** Reads line `i` (0-based) of a JSON Lines text into `read`: a record, or a diagnostic when it is not JSON. */
function lineRecord(read: LinesRead, l: string, i: number): void {
  if (l.trim() === '') return;
  read.nonEmpty++;
  try {
    const record = JSON.parse(l) as unknown;
    read.records.push(record);
    read.kept.push(i + 1);
    if (typeof record === 'object' && record !== null) read.objects++;
  } catch (le) {
    read.diagnostics.push({ at: `line ${i + 1}`, message: `invalid JSON (${le instanceof Error ? le.message : String(le)}); line skipped` });
  }
}

function loadEnd(read: LinesRead, source: string): Result<Loaded> {
  const { body, lines, kept, nonEmpty, objects, error: e } = read;
  // JSON Lines when the first line is JSON or, a broken first line aside, at least half the lines are records
  // (the same damage as on a later line); a broken pretty-printed document, whose lines are rarely JSON objects
  // on their own, stays one document and its error names the position.
  const firstOk = kept[0] === lines.findIndex((l) => l.trim() !== '') + 1;
  if (nonEmpty < 2 || (!firstOk && objects * 2 < nonEmpty)) return err(new SteplensError('bad_input', `${source}: invalid JSON: ${position(body, e)}`, { cause: e }));
  return ok({ doc: read.records, diagnostics: read.diagnostics, lines: kept });
}

function load(text: string, source: string): Result<Loaded> {
  const start = loadStart(text, source);
  if (!start.ok) return start;
  if (!('records' in start.value)) return ok(start.value);
  const read = start.value;
  read.lines.forEach((l, i) => lineRecord(read, l, i));
  return loadEnd(read, source);
}

/** How the caller walks a text's lines (the server: a slice of lines a turn of its loop); `each` in order, every one. */
export type EachLine = (lines: readonly string[], each: (line: string, index: number) => void) => Promise<void>;

/**
 * A log text's document, as `parseLogText` reads it, with the lines of a JSON Lines text walked by `eachLine` (T100: a
 * 60 MB JSON Lines text parsed line by line in one go held the scoring worker for seconds). `lines`: of each record.
 */
export async function loadLogText(text: string, source: string, eachLine: EachLine): Promise<Result<Loaded>> {
  const start = loadStart(text, source);
  if (!start.ok) return start;
  if (!('records' in start.value)) return ok(start.value);
  const read = start.value;
  await eachLine(read.lines, (l, i) => lineRecord(read, l, i));
  return loadEnd(read, source);
}

/** A parse of a text's records with each `record N` diagnostic named by its line of the text (JSON Lines). */
export function remapToLines(r: ParseResult, loaded: Loaded): ParseResult {
  const lines = loaded.lines;
  const diagnostics = r.diagnostics.map((d) => {
    const m = /^record (\d+)$/.exec(d.at);
    const line = m?.[1] !== undefined && lines !== undefined ? lines[Number(m[1]) - 1] : undefined;
    return line === undefined ? d : { at: `line ${line}`, message: d.message };
  });
  return { ...r, diagnostics };
}

/** Parses trajectory text (a JSON document or JSON Lines) in `format`, or detects it. */
export function parseTrajectoryText(text: string, format: FormatName | 'auto', source = 'input'): Result<ParseResult> {
  const loaded = load(text, source);
  if (!loaded.ok) return loaded;
  const r = parseDocument(loaded.value.doc, format, source);
  if (!r.ok) return r;
  const one = remapToLines(r.value, loaded.value);
  return ok({ ...one, diagnostics: [...loaded.value.diagnostics, ...one.diagnostics] });
}

/** Every trajectory of a log text, and the problems of the text itself (JSON lines that do not parse). */
export interface ParsedLog {
  /** One per instance of an OpenHands `output.jsonl`; exactly one for every other log. */
  instances: ParseResult[];
  /** Lines of a JSON Lines text that are not JSON (each skipped); each instance has its own diagnostics. */
  diagnostics: Diagnostic[];
  /** The raw document of each instance (what the format's `events()` splits into raw events). */
  documents: unknown[];
}

/** Parses a log text into its instances (OpenHands `output.jsonl` holds several), keeping file-level problems apart. */
export function parseLogText(text: string, format: FormatName | 'auto', source = 'input'): Result<ParsedLog> {
  const loaded = load(text, source);
  return loaded.ok ? parseLoadedLog(loaded.value, format, source) : loaded;
}

/** The rest of {@link parseLogText}: a loaded text's instances. */
export function parseLoadedLog(loaded: Loaded, format: FormatName | 'auto', source = 'input'): Result<ParsedLog> {
  const r = parseInstances(loaded.doc, format, source);
  if (!r.ok) return r;
  const instances = r.value.map((p) => remapToLines(p, loaded));
  return ok({ instances, diagnostics: loaded.diagnostics, documents: instanceDocuments(loaded.doc, instances[0]?.format ?? 'steplens') });
}

/** Like parseTrajectoryText, but one result per instance; the text's own problems go to the first. */
export function parseInstancesText(text: string, format: FormatName | 'auto', source = 'input'): Result<ParseResult[]> {
  const r = parseLogText(text, format, source);
  if (!r.ok) return r;
  return ok(r.value.instances.map((p, i) => (i === 0 ? { ...p, diagnostics: [...r.value.diagnostics, ...p.diagnostics] } : p)));
}
