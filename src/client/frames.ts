/** Raw socket data → a validated server message, or an error naming what is wrong. */
import type WebSocket from 'ws';
import { formatIssues } from '../core/config.js';
import { serverMessageSchema, type ServerMessage } from '../protocol/server-messages.js';

/** The text of one received WebSocket message. */
export function dataText(data: WebSocket.RawData | string): string {
  if (typeof data === 'string') return data;
  const decoder = new TextDecoder();
  if (Array.isArray(data)) return data.map((d) => decoder.decode(d, { stream: true })).join('') + decoder.decode();
  return decoder.decode(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
}

/** Parses one server frame with the protocol's server-message schema. */
export function parseServerFrame(text: string): { ok: true; message: ServerMessage } | { ok: false; error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `invalid JSON (${(error as Error).message})` };
  }
  const parsed = serverMessageSchema.safeParse(doc);
  if (parsed.success) return { ok: true, message: parsed.data };
  const type = typeof doc === 'object' && doc !== null && 'type' in doc ? JSON.stringify(doc.type) : 'none';
  return { ok: false, error: `type ${type}: ${formatIssues(parsed.error, 'frame')}` };
}
