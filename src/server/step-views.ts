import { OneAtATime } from './one-at-a-time.js';

/** Step views one tenant may have queued or being built (each up to ~50 ms of the loop, one at a time). */
export const VIEWS_PER_TENANT = 16;

/**
 * A session's whole step view is large work (docs/reliability.md T25): `GET /v1/sessions/:id/steps` and the first
 * event of a session's live feed (`GET /v1/live?session=`) build theirs in one queue, one at a time, and a tenant
 * has at most {@link VIEWS_PER_TENANT} of them queued or being built, whichever route asked: its backlog cannot
 * hold others' views for long. One instance per app (app.ts), shared by both routes.
 */
export class StepViews {
  private readonly queue = new OneAtATime();
  private readonly viewing = new Map<string, number>();

  /** `what`: what is queued, as the refusal names it. */
  constructor(
    private readonly perTenant = VIEWS_PER_TENANT,
    private readonly what = 'step views',
  ) {}

  /** Why `tenant` may not queue one more view (the 429 `quota_exceeded` message), or undefined. */
  refusal(tenant: string): string | undefined {
    const queued = this.viewing.get(tenant) ?? 0;
    return queued >= this.perTenant ? `${queued} ${this.what} of this tenant are queued, the limit: retry once they are answered` : undefined;
  }

  /** Runs `work` once the views queued before it are built, counted against `tenant` until it settles (see {@link refusal}). */
  async run<T>(tenant: string, work: () => Promise<T> | T): Promise<T> {
    this.viewing.set(tenant, (this.viewing.get(tenant) ?? 0) + 1);
    try {
      return await this.queue.run(work, tenant);
    } finally {
      const left = (this.viewing.get(tenant) ?? 1) - 1;
      if (left === 0) this.viewing.delete(tenant);
      else this.viewing.set(tenant, left);
    }
  }

  /** Views queued or being built, every tenant's. */
  get queued(): number {
    return this.queue.queued;
  }
}
