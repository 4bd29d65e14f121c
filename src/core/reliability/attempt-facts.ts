/** The per-attempt facts section 9 needs, read from a parsed trajectory. */
import type { Step } from '../types.js';
import { editVolume, patchLines } from './patch-churn.js';
import { classifyToolFailure, isToolCall } from './tool-failures.js';
import { AGENT_FAILURE_KINDS, type AgentFailureKind } from './types.js';

export interface AttemptFacts {
  patchLines: number;
  editVolume: number;
  toolCalls: number;
  toolFailures: number;
  failuresByKind: Record<AgentFailureKind, number>;
}

/** Patch size (from the log's final patch), edit volume, tool calls and agent-induced failures. */
export function attemptFacts(steps: readonly Step[], patch: string | undefined): AttemptFacts {
  const failuresByKind = Object.fromEntries(AGENT_FAILURE_KINDS.map((k) => [k, 0])) as Record<AgentFailureKind, number>;
  let toolCalls = 0;
  let toolFailures = 0;
  for (const step of steps) {
    if (!isToolCall(step)) continue;
    toolCalls++;
    const kind = classifyToolFailure(step);
    if (kind) {
      toolFailures++;
      failuresByKind[kind]++;
    }
  }
  return { patchLines: patchLines(patch), editVolume: editVolume(steps), toolCalls, toolFailures, failuresByKind };
}
