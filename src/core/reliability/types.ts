/** Data model of the multi-trial reliability metrics (method.md section 9). */

/** How an attempt ended: `censored` = interrupted by infrastructure (provider time-out, container reset). */
export type AttemptOutcome = 'pass' | 'fail' | 'censored';

/** Why a tool call failed through the agent's own fault (see `classifyToolFailure`). */
export type AgentFailureKind = 'malformed_arguments' | 'path_not_found' | 'shell_syntax' | 'command_not_found' | 'timeout';
export const AGENT_FAILURE_KINDS: readonly AgentFailureKind[] = ['malformed_arguments', 'path_not_found', 'shell_syntax', 'command_not_found', 'timeout'];

/** One attempt of one configuration on one task. */
export interface Attempt {
  task: string;
  run: string;
  outcome: AttemptOutcome;
  /** Lines added plus deleted by the final patch (0 when there is none). */
  patchLines: number;
  /** Lines added plus deleted over all edits of the attempt. */
  editVolume: number;
  toolCalls: number;
  /** Tool calls that failed through the agent's own fault. */
  toolFailures: number;
}

/** Section 9 metrics of one configuration. Null where the denominator is empty. */
export interface ReliabilityMetrics {
  tasks: number;
  /** Attempts per task: smallest and largest k. */
  kMin: number;
  kMax: number;
  planned: number;
  completed: number;
  passes: number;
  pAttempt: number | null;
  allPassConditional: number | null;
  /** Tasks without a censored attempt (the conditional denominator). */
  uncensoredTasks: number;
  allPassConservative: number | null;
  passAtK: number | null;
  cr: number | null;
  jcr: number | null;
  /** Mean patch churn over completed attempts. */
  pcr: number | null;
  /** Median patch churn over completed attempts: a point (no interval; not in the report's tables, only report.json). */
  pcrMedian: number | null;
  /** Pooled: agent-induced failures / tool calls over completed attempts. */
  atfr: number | null;
}
