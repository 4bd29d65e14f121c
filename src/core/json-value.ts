/** The one check for a parsed JSON object, for every layer that reads untyped input. */

/** A JSON object as parsed: string keys, values not yet checked. */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isRecord(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
