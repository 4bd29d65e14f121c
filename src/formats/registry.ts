/**
 * Format registry: detection, parser lookup, and whole-document parsing with errors as values.
 */
import { SteplensError, err, ok, type Result } from '../errors.js';
import { atifParser } from './atif.js';
import { isRecord, typeName } from './json-helpers.js';
import { miniSweAgentParser } from './mini-swe-agent.js';
import { openHandsInstanceDocuments, openHandsParser, parseOpenHandsInstances } from './openhands.js';
import { steplensParser } from './steplens.js';
import { sweAgentParser } from './swe-agent.js';
import { FORMAT_NAMES, type FormatName, type FormatParser, type ParseResult } from './types.js';


const PARSERS: Record<FormatName, FormatParser> = {
  steplens: steplensParser,
  openhands: openHandsParser,
  'swe-agent': sweAgentParser,
  'mini-swe-agent': miniSweAgentParser,
  atif: atifParser,
};

/** The parser of a format. */
export function getParser(name: FormatName): FormatParser {
  return PARSERS[name];
}

/** True when `name` is a known format name. */
export function isFormatName(name: string): name is FormatName {
  return (FORMAT_NAMES as readonly string[]).includes(name);
}

/** The first format (in FORMAT_NAMES order) whose parser recognises the document, if any. */
export function detectFormat(doc: unknown): FormatName | undefined {
  return FORMAT_NAMES.find((f) => PARSERS[f].detect(doc));
}

/** A short description of a document for error messages (its type, or an object's top keys). */
export function describeDocument(doc: unknown): string {
  if (isRecord(doc)) {
    const keys = Object.keys(doc);
    return keys.length === 0 ? 'an empty JSON object' : `a JSON object with keys ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', ...' : ''}`;
  }
  if (Array.isArray(doc)) return doc.length === 0 ? 'an empty array' : `an array whose first element is ${describeDocument(doc[0])}`;
  return typeName(doc);
}

function resolve(doc: unknown, format: FormatName | 'auto', source?: string): Result<FormatName> {
  const where = source === undefined ? '' : `${source}: `;
  if (format === 'auto') {
    const found = detectFormat(doc);
    if (found !== undefined) return ok(found);
    return err(new SteplensError('unknown_format', `${where}could not detect the log format (tried ${FORMAT_NAMES.join(', ')}): the input is ${describeDocument(doc)}`));
  }
  if (!isFormatName(format)) return err(new SteplensError('usage', `unknown format "${String(format)}" (expected auto, ${FORMAT_NAMES.join(', ')})`));
  if (!PARSERS[format].detect(doc)) {
    const diag = PARSERS[format].parse(doc).diagnostics[0];
    return err(new SteplensError('bad_input', `${where}not ${/^[aeiou]/i.test(format) ? 'an' : 'a'} ${format} log: ${diag?.message ?? describeDocument(doc)}`));
  }
  return ok(format);
}

/** Parses one parsed JSON document (or array of JSON Lines records) in `format`, or detects it. */
export function parseDocument(doc: unknown, format: FormatName | 'auto', source?: string): Result<ParseResult> {
  const f = resolve(doc, format, source);
  return f.ok ? ok(PARSERS[f.value].parse(doc)) : f;
}

/**
 * Every trajectory in a document: one per instance of an OpenHands `output.jsonl`
 * (meta.task = instance_id), a single one for every other format.
 */
export function parseInstances(doc: unknown, format: FormatName | 'auto', source?: string): Result<ParseResult[]> {
  const f = resolve(doc, format, source);
  if (!f.ok) return f;
  return ok(f.value === 'openhands' ? parseOpenHandsInstances(doc) : [PARSERS[f.value].parse(doc)]);
}

/**
 * The raw document of each instance, aligned with `parseInstances` (an OpenHands `output.jsonl`:
 * its lines; any other log: itself): what `getParser(format).events()` splits into raw events.
 */
export function instanceDocuments(doc: unknown, format: FormatName): unknown[] {
  return format === 'openhands' ? openHandsInstanceDocuments(doc) : [doc];
}
