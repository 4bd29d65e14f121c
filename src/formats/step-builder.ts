/** Builds normalised steps without `undefined`-valued keys, so steps compare and serialise cleanly. */
import type { Action, Step, TokenCounts } from '../core/types.js';
import { isRecord, num } from './json-helpers.js';

/** Step fields before `t` is assigned. */
export type StepDraft = Omit<Step, 't'>;

/** Removes keys whose value is undefined (shallow). */
export function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** A step at position `t` from a draft, with undefined fields dropped. */
export function makeStep(t: number, d: StepDraft): Step {
  return compact<Step>({
    t,
    tool: d.tool,
    args: d.args,
    action: compact<Action>(d.action),
    observation: d.observation,
    exitCode: d.exitCode,
    tokens: d.tokens,
    timestamp: d.timestamp,
    thought: d.thought === '' ? undefined : d.thought,
    cwd: d.cwd,
    id: d.id,
  });
}

/** Prompt/completion token counts from an OpenAI-style `usage` object (or ATIF `metrics`). */
export function usageTokens(usage: unknown): TokenCounts | undefined {
  if (!isRecord(usage)) return undefined;
  const prompt = num(usage.prompt_tokens) ?? num(usage.input_tokens);
  const completion = num(usage.completion_tokens) ?? num(usage.output_tokens);
  if (prompt === undefined && completion === undefined) return undefined;
  return compact<TokenCounts>({ prompt, completion });
}
