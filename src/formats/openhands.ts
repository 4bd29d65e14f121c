/**
 * The `openhands` format: `output.jsonl` instances (one JSON object per line with a `history`
 * event list), raw JSON arrays of events, and LLM-completion logs (`fncall_messages`).
 * A whole `output.jsonl` (an array of instances) parses as its first instance; `parseInstances`
 * (what the CLI and the report use) gives every instance. The stream parser picks event or chat-message handling from the first event.
 */
import { arr, isRecord, str, typeName, type Rec } from './json-helpers.js';
import { ChatMessageStream, completionEvents, isCompletionLog } from './openhands-completions.js';
import { OpenHandsEventStream, historyOf, isOpenHandsEvent } from './openhands-events.js';
import { compact } from './step-builder.js';
import { runStream } from './stream-runner.js';
import type { FormatParser, ParseResult, StreamParser, TrajectoryMeta } from './types.js';

function isInstance(v: unknown): v is Rec {
  return isRecord(v) && Array.isArray(v.history) && !('trajectory' in v) && (v.history.length === 0 || v.history.some(isOpenHandsEvent));
}

function isEventArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.some(isOpenHandsEvent) && !v.some(isInstance);
}

function isInstanceArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && isInstance(v[0]);
}

/** Chooses the event or chat-message stream from the first event it can use. */
class OpenHandsStream implements StreamParser {
  private inner: StreamParser | undefined;
  private n = 0;

  push(event: unknown): ReturnType<StreamParser['push']> {
    const at = `event ${this.n++}`;
    const inner = this.inner ?? (isRecord(event) && typeof event.role === 'string' && !isOpenHandsEvent(event) ? new ChatMessageStream() : new OpenHandsEventStream());
    const out = inner.push(event);
    // An event neither stream can use does not choose: the server refuses it, and the next event may be of either.
    if (out.steps.length > 0 || out.diagnostics.length === 0) this.inner = inner;
    return { steps: out.steps, diagnostics: out.diagnostics.map((d) => ({ ...d, at })) };
  }

  end(): ReturnType<StreamParser['end']> {
    return this.inner?.end() ?? { steps: [], diagnostics: [] };
  }
}

function meta(doc: unknown): TrajectoryMeta {
  if (!isRecord(doc)) return { agent: 'openhands' };
  const md = isRecord(doc.metadata) ? doc.metadata : {};
  // V0 names the model in `metadata.llm_config`, the V1 SDK's benchmarks in `metadata.llm`.
  const llm = isRecord(md.llm_config) ? md.llm_config : isRecord(md.llm) ? md.llm : {};
  const tr = isRecord(doc.test_result) ? doc.test_result : {};
  const error = str(doc.error);
  return compact<TrajectoryMeta>({
    task: str(doc.instance_id),
    model: str(llm.model),
    agent: str(md.agent_class) ?? 'openhands',
    patch: (str(tr.git_patch) ?? str(doc.git_patch)) || undefined,
    exitStatus: error ? `error: ${error}` : undefined,
  });
}

function parseOne(doc: unknown): ParseResult {
  const r = runStream(new OpenHandsStream(), openHandsParser.events(doc));
  return { format: 'openhands', meta: meta(doc), ...r };
}

/** The OpenHands parser (event streams, `output.jsonl` instances, completion logs). */
export const openHandsParser: FormatParser = {
  name: 'openhands',
  detect: (doc) => isInstance(doc) || isInstanceArray(doc) || isEventArray(doc) || isCompletionLog(doc),
  events(doc) {
    if (isCompletionLog(doc)) return completionEvents(doc);
    if (isInstanceArray(doc)) return historyOf(doc[0]);
    return isInstance(doc) || isEventArray(doc) ? historyOf(doc) : [];
  },
  stream: () => new OpenHandsStream(),
  parse(doc): ParseResult {
    if (!openHandsParser.detect(doc)) {
      return { format: 'openhands', meta: {}, steps: [], diagnostics: [{ at: 'document', message: `expected an OpenHands instance, event array or completion log, got ${typeName(doc)}` }] };
    }
    return parseOne(isInstanceArray(doc) ? doc[0] : doc);
  },
};

/** One ParseResult per instance of an OpenHands `output.jsonl` (meta.task = instance_id); other documents give one. */
export function parseOpenHandsInstances(doc: unknown): ParseResult[] {
  if (!isInstanceArray(doc)) return [openHandsParser.parse(doc)];
  return arr(doc).map((inst, i) =>
    isInstance(inst)
      ? parseOne(inst)
      : { format: 'openhands' as const, meta: {}, steps: [], diagnostics: [{ at: `instance ${i}`, message: `expected an object with a \`history\` array, got ${typeName(inst)}` }] },
  );
}

/** The raw document of each instance, aligned with `parseOpenHandsInstances`. */
export function openHandsInstanceDocuments(doc: unknown): unknown[] {
  return isInstanceArray(doc) ? arr(doc) : [doc];
}
