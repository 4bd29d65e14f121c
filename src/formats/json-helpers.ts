/** Small structural helpers for reading untyped JSON log records without throwing. */
import { isRecord, type JsonObject } from '../core/json-value.js';

export { isRecord };
export type Rec = JsonObject;

/** The value as a string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The value as a finite number (numeric strings accepted), or undefined. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

/** The value as an array, or an empty array. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Parses a JSON string when the log stores an object as text; passes objects through. */
export function jsonValue(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const s = v.trim();
  if (!(s.startsWith('{') || s.startsWith('['))) return v;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return v;
  }
}

/** Tool-call arguments: a JSON object or a JSON string of one; anything else becomes `{ raw }`. */
export function toolArgs(v: unknown): Rec {
  const parsed = jsonValue(v);
  if (isRecord(parsed)) return parsed;
  if (v === undefined || v === null || v === '') return {};
  return { raw: v };
}

/** One OpenAI-style tool call (`{id, function: {name, arguments}}`, or flat `{id, name, arguments}`), unpacked. */
export interface ToolCall {
  name: string | undefined;
  args: Rec;
  id: string | undefined;
}

export function toolCall(call: Rec): ToolCall {
  const fn = isRecord(call.function) ? call.function : call;
  return { name: str(fn.name), args: toolArgs(fn.arguments), id: str(call.id) };
}

/** The tool calls of a chat message (entries that are not objects are skipped). */
export function toolCallsOf(message: Rec): ToolCall[] {
  return arr(message.tool_calls).filter(isRecord).map(toolCall);
}

/** The text of a chat message content: a string, or the joined `text` parts of a content array. */
export function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content.map((p) => (typeof p === 'string' ? p : isRecord(p) ? (str(p.text) ?? str(p.content)) : undefined)).filter((p): p is string => p !== undefined);
    return parts.length > 0 ? parts.join('\n') : undefined;
  }
  return undefined;
}

/** Unix seconds (or an ISO string) as an ISO timestamp. */
export function isoTime(v: unknown): string | undefined {
  if (typeof v === 'string' && v.length > 0 && Number.isNaN(Number(v))) return v;
  const n = num(v);
  if (n === undefined || n <= 0) return undefined;
  const d = new Date(n * 1000);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** A short description of a value's JSON type, for diagnostics. */
export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * Nesting a JSON value may have (objects and arrays in one another). Deeper input is refused where it
 * enters (frames, bodies, log files): recursive code anywhere behind it (a walk, `JSON.stringify`, a
 * structured clone) would overflow the stack. Real logs nest a dozen levels.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `v` nests objects/arrays deeper than `max` levels. Recursive, but the recursion stops at
 * `max + 1` levels whatever the input, so it cannot overflow the stack; it allocates nothing (it runs on
 * every frame).
 */
export function nestedDeeperThan(v: unknown, max = MAX_JSON_DEPTH): boolean {
  return typeof v === 'object' && v !== null && (max < 1 || deeperThan(v, max - 1));
}

/** True when the children of `v` nest deeper than `left` more levels. */
function deeperThan(v: object, left: number): boolean {
  if (Array.isArray(v)) {
    for (const c of v as unknown[]) if (typeof c === 'object' && c !== null && (left === 0 || deeperThan(c, left - 1))) return true;
    return false;
  }
  for (const k in v) {
    if (!Object.hasOwn(v, k)) continue;
    const c = (v as Record<string, unknown>)[k];
    if (typeof c === 'object' && c !== null && (left === 0 || deeperThan(c, left - 1))) return true;
  }
  return false;
}

/** The message of a refused deep value (`where` names it: `step.args: nested deeper than 64 levels`). */
export function tooDeepMessage(where?: string, max = MAX_JSON_DEPTH): string {
  return `${where === undefined ? '' : `${where}: `}nested deeper than ${max} levels`;
}
