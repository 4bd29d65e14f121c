/** The shapes the server sends (type-only imports of the protocol's zod types: nothing of zod is bundled). */
export type { AlignmentBody, LiveStep, ScoreStepsResponse, SessionSummary, TrajectoryView, ViewStep } from '../../src/protocol/view-bodies.js';
export type { FinalMessage, ScoreMessage, SignalMessage } from '../../src/protocol/server-messages.js';
export type { TaskStats } from '../../src/protocol/http-bodies.js';

/** A PTA as `GET /v1/tasks/:task/pta` sends it (the fields the page reads). */
export interface PtaJson {
  task: string;
  version: number;
  tau: number;
  nodes: Array<{
    id: number;
    parent: number | null;
    children: number[];
    refs: number;
    state: { t: number; stage: string; kind: string; tool: string; file?: string; range?: [number, number]; scope?: string; command: boolean } | null;
  }>;
  references: Array<{ length: number; implTargets: number }>;
  files: string[];
  /** Whose PTA, on a server that keeps one per tenant: `shared` or the tenant's own. */
  scope?: 'shared' | 'tenant';
}

export interface Signal {
  kind: string;
  severity: 'warn' | 'stop';
  t: number;
  steps: number[];
  message: string;
}
