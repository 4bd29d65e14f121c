/**
 * The one small interface every log-format parser implements, whole-file and
 * streaming. Parsers never throw on bad content: they report diagnostics.
 */
import type { Step } from '../core/types.js';

export type FormatName = 'steplens' | 'openhands' | 'swe-agent' | 'mini-swe-agent' | 'atif';
export const FORMAT_NAMES: readonly FormatName[] = ['steplens', 'openhands', 'swe-agent', 'mini-swe-agent', 'atif'];

/** A problem in the input, with where it is; the offending part is skipped. */
export interface Diagnostic {
  /** Where: `line 12`, `history[5]`, `event 40`, ... */
  at: string;
  message: string;
}

/** Metadata read from the log itself, where present. */
export interface TrajectoryMeta {
  task?: string;
  model?: string;
  agent?: string;
  /** The final patch / submission, if the log carries it. */
  patch?: string;
  /** Exit status as the log records it (`submitted`, `Timeout`, ...). */
  exitStatus?: string;
}

export interface ParseResult {
  format: FormatName;
  meta: TrajectoryMeta;
  steps: Step[];
  diagnostics: Diagnostic[];
}

/** Incremental parser: raw events in, complete steps out as soon as they are complete. */
export interface StreamParser {
  /** Feeds one raw event (a parsed JSON value). Returns the steps it completed. */
  push(event: unknown): { steps: Step[]; diagnostics: Diagnostic[] };
  /** No more events: flush what is pending (e.g. an action still waiting for its observation). */
  end(): { steps: Step[]; diagnostics: Diagnostic[] };
}

export interface FormatParser {
  name: FormatName;
  /** True when a parsed document (or array of JSON Lines records) looks like this format. */
  detect(doc: unknown): boolean;
  /** Parses a whole document: the parsed JSON value, or an array of records for a line-based log. */
  parse(doc: unknown): ParseResult;
  /** Splits a whole document into the raw events a live client would stream. */
  events(doc: unknown): unknown[];
  /** A fresh streaming parser. Feeding it `events(doc)` one by one yields the same steps as `parse(doc)`. */
  stream(): StreamParser;
}
