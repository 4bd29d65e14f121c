/**
 * The live feed's viewer slots (live-feed.ts): how many viewers there may be, of them how many one tenant that is not
 * an operator may hold (its share), and how many are kept for operators.
 */
import { can, type Principal } from './principal.js';

export interface ViewerLimits {
  /** Viewers at once; more get `overloaded` (503). */
  maxViewers: number;
  /** Viewers one tenant that is not an operator may hold; more get `quota_exceeded` (429). Default: `maxViewers`. */
  perTenant?: number;
  /** Of `maxViewers`, slots only operators may take (agents past the rest get `overloaded`). Default 0. */
  forOperators?: number;
}

export class ViewerSlots {
  /** Viewers of each tenant that is not an operator's (their share), and of them all. */
  private readonly held = new Map<string, number>();
  private agents = 0;

  constructor(private readonly limits: ViewerLimits) {}

  /**
   * Why `principal` may not open one more feed besides the `viewers` there are, or undefined. A tenant's share is
   * checked first, as a session quota is: one tenant alone must not fill the slots of every other tenant and of the operators.
   */
  refusal(principal: Principal, viewers: number): { code: 'quota_exceeded' | 'overloaded'; message: string } | undefined {
    const { maxViewers, perTenant = maxViewers, forOperators = 0 } = this.limits;
    const operator = can(principal, 'operate');
    if (!operator && perTenant < maxViewers && (this.held.get(principal.tenant) ?? 0) >= perTenant) {
      return { code: 'quota_exceeded', message: `this tenant already has ${perTenant} live viewer${perTenant === 1 ? '' : 's'}, its limit: close some first` };
    }
    if (viewers >= maxViewers) return { code: 'overloaded', message: `the server already has ${maxViewers} live viewers` };
    if (!operator && this.agents >= maxViewers - forOperators) {
      return { code: 'overloaded', message: `the server already has ${this.agents} live viewers of agents (${forOperators} more are kept for operators)` };
    }
    return undefined;
  }

  /** A viewer counted against `holder`'s share (an operator's holds none). */
  take(holder: string): void {
    this.held.set(holder, (this.held.get(holder) ?? 0) + 1);
    this.agents++;
  }

  /** Gives back a slot {@link take} counted. */
  give(holder: string): void {
    const n = (this.held.get(holder) ?? 1) - 1;
    if (n > 0) this.held.set(holder, n);
    else this.held.delete(holder);
    this.agents--;
  }

  clear(): void {
    this.held.clear();
    this.agents = 0;
  }
}
