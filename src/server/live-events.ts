/**
 * The live feed's events as Server-Sent Events bytes, `data: JSON` and a blank line (frames scored together: one
 * event each, in one buffer). Each is encoded once and the same bytes written to every viewer (live-feed.ts).
 */
import { frameText } from './frame-text.js';
import type { Session, StepFrame } from './session.js';

export const event = (json: string): Buffer => Buffer.from(`data: ${json}\n\n`, 'utf8');

/** Frames as sent: a list's viewers. */
export function plainFrames(frames: readonly StepFrame[]): Buffer {
  return event(frames.map(frameText).join('\n\ndata: '));
}

/** Frames with their session's tenant: an operator's list while several tenants may exist (their ids may repeat). */
export function taggedFrames(s: Session, frames: readonly StepFrame[]): Buffer {
  return event(frames.map((f) => JSON.stringify({ ...f, tenant: s.tenant })).join('\n\ndata: '));
}

/** Frames for the session's own page: each score frame with the step it scored. */
export function sessionFrames(s: Session, frames: readonly StepFrame[]): Buffer {
  return event(frames.map((f) => JSON.stringify(f.type === 'score' ? { ...f, step: stepOf(s, f.t) } : f)).join('\n\ndata: '));
}

/** What a session viewer needs of a scored step beyond its score frame. */
function stepOf(s: Session, t: number): { kind: string; tool: string; text: string; file?: string; failed: boolean } | undefined {
  const state = s.state(t);
  if (state === undefined) return undefined;
  return { kind: state.kind, tool: state.tool, text: s.stepTexts()[t] ?? '', ...(state.file !== undefined ? { file: state.file } : {}), failed: state.failed };
}
