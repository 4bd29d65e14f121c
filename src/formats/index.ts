/**
 * Log formats: detection, parser lookup, whole-document and text parsing (errors as values), and
 * the streaming parsers. No file I/O here: callers pass parsed JSON or text.
 */
export { describeDocument, detectFormat, getParser, instanceDocuments, isFormatName, parseDocument, parseInstances } from './registry.js';
export { loadLogText, parseInstancesText, parseLoadedLog, parseLogText, parseTrajectoryText, remapToLines, type EachLine, type Loaded, type ParsedLog } from './text-input.js';
export { runStream } from './stream-runner.js';
export { exitCodeFromText } from './exit-code.js';
export type { Diagnostic, FormatName, FormatParser, ParseResult, StreamParser, TrajectoryMeta } from './types.js';
export { FORMAT_NAMES } from './types.js';
