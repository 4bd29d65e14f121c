/** A hand-built report row (one run of `model` on task t__t-1 unless `task` is given): for tests of the tables' arithmetic. */
import { AGENT_FAILURE_KINDS } from '../../src/core/reliability/types.js';
import type { LuckyCategory, Tier } from '../../src/core/types.js';
import type { Outcome, TrajectoryRow } from '../../src/report/types.js';

export function row(model: string, outcome: Outcome, total?: number, tier?: Tier, lucky?: LuckyCategory, task = 't__t-1'): TrajectoryRow {
  return {
    id: `${model}-${Math.random()}`,
    task,
    run: 'r',
    model,
    agent: 'a',
    source: `a + ${model}`,
    format: 'swe-agent',
    steps: 5,
    outcome,
    outcomeSource: 'x',
    ...(total !== undefined ? { score: { total, struct: total, cov: total, coh: total / 100, temp: total / 100 }, tier: tier! } : {}),
    ...(lucky ? { lucky } : {}),
    wastedSteps: 1,
    wastedTokens: 10,
    waste: [],
    signals: [],
    patchLines: 0,
    editVolume: 0,
    toolCalls: 5,
    toolFailures: 0,
    failuresByKind: Object.fromEntries(AGENT_FAILURE_KINDS.map((k) => [k, 0])) as TrajectoryRow['failuresByKind'],
  };
}
