/**
 * Format registry: detection, parser lookup, and whole-document parsing with errors as values.
 */
import { SteplensError, err, ok, type Result } from '../errors.js';
import { atifParser } from './atif.js';
import { isRecord, nestedDeeperThan, tooDeepMessage, typeName } from './json-helpers.js';
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

/** A short description of a document for error messages (its type, or an object's top keys; arrays by their first elements, 4 deep at most). */
export function describeDocument(doc: unknown): string {
  let prefix = '';
  let value = doc;
  for (let depth = 0; Array.isArray(value) && value.length > 0; depth++) {
    if (depth === 4) return `${prefix}an array ...`;
    prefix += 'an array whose first element is ';
    value = value[0];
  }
  if (Array.isArray(value)) return `${prefix}an empty array`;
  if (isRecord(value)) {
    const keys = Object.keys(value);
    return `${prefix}${keys.length === 0 ? 'an empty JSON object' : `a JSON object with keys ${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', ...' : ''}`}`;
  }
  return `${prefix}${typeName(value)}`;
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

/** A document nested too deeply to read safely, as a `bad_input` error naming `source`. */
function tooDeep(doc: unknown, source?: string): Result<never> | undefined {
  if (!nestedDeeperThan(doc)) return undefined;
  return err(new SteplensError('bad_input', tooDeepMessage(source)));
}

/** Parses one parsed JSON document (or array of JSON Lines records) in `format`, or detects it. */
export function parseDocument(doc: unknown, format: FormatName | 'auto', source?: string): Result<ParseResult> {
  const deep = tooDeep(doc, source);
  if (deep) return deep;
  const f = resolve(doc, format, source);
  return f.ok ? ok(PARSERS[f.value].parse(doc)) : f;
}

/**
 * Every trajectory in a document: one per instance of an OpenHands `output.jsonl`
 * (meta.task = instance_id), a single one for every other format.
 */
export function parseInstances(doc: unknown, format: FormatName | 'auto', source?: string): Result<ParseResult[]> {
  const deep = tooDeep(doc, source);
  if (deep) return deep;
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
