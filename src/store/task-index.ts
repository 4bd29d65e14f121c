/**
 * A store's task keys split by whose they are: the shared tasks, and per tenant the store keys of its own PTAs
 * (tenant-keys.ts). The file store keeps one in memory beside its files; Redis keeps the same split in sets
 * (redis/task-index.ts). A tenant's listing of tasks and its quota's read then take the shared tasks and its own,
 * not every tenant's own PTAs (T82: another tenant's 50,000 made a listing 202 ms).
 */
import { ownerOfKey } from './tenant-keys.js';

export class TaskIndex {
  private readonly shared = new Set<string>();
  private readonly own = new Map<string, Set<string>>();

  add(key: string): void {
    const owner = ownerOfKey(key);
    if (owner === undefined) {
      this.shared.add(key);
      return;
    }
    let keys = this.own.get(owner.tenant);
    if (keys === undefined) this.own.set(owner.tenant, (keys = new Set()));
    keys.add(key);
  }

  delete(key: string): void {
    const owner = ownerOfKey(key);
    if (owner === undefined) {
      this.shared.delete(key);
      return;
    }
    const keys = this.own.get(owner.tenant);
    keys?.delete(key);
    if (keys?.size === 0) this.own.delete(owner.tenant);
  }

  /** The shared tasks, sorted. */
  sharedTasks(): string[] {
    return [...this.shared].sort();
  }

  /** The store keys of `tenant`'s own PTAs, sorted. */
  ownTasks(tenant: string): string[] {
    return [...(this.own.get(tenant) ?? [])].sort();
  }
}
