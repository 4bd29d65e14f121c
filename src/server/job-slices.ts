/**
 * A scoring job's work in slices: a job yields its thread once it has worked JOB_SLICE_MS since it last did. A
 * worker thread runs every job sent to it at once (score-pool.ts sends another tenant's job beside a tenant's two),
 * but a trajectory was scored in one go: one tenant's `POST /v1/score` of steps each costing a bash parse's CPU
 * backstop held the worker, and every other tenant's scoring queued behind it, for as long as it ran (two of
 * 60 such steps: 75 s; docs/reliability.md, T97). Inline (no workers), the same slices give the event loop back.
 */
export const JOB_SLICE_MS = 10;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Call `tick()` after each step: it yields (a turn of the loop) once the slice's time is spent. */
export class JobSlices {
  private since = performance.now();

  async tick(): Promise<void> {
    if (performance.now() - this.since < JOB_SLICE_MS) return;
    await nextTurn();
    this.since = performance.now();
  }
}
