/**
 * Where the file store's task PTAs are on disk: each task's file (in the data folder or a seed folder) and its bytes,
 * the removal markers (a removed task's file and the version removed), and a count of writes per task, by which a
 * read begun before a write knows not to cache what it read.
 */
import path from 'node:path';
import { taskFileName } from './file-names.js';
import { TaskIndex } from './task-index.js';

/** A removed task: the file holding its removal marker, and the version removed. */
export interface Removed {
  file: string;
  version: number;
}

export class TaskFiles {
  private readonly files = new Map<string, string>();
  /** The keys of `files`, shared and each tenant's own apart. */
  private readonly byOwner = new TaskIndex();
  /** The bytes of each task's file (its PTA's JSON), as read at open or written since. */
  private readonly bytes = new Map<string, number>();
  /** Tasks whose PTA was removed (and that have none since). */
  private readonly removed = new Map<string, Removed>();
  /** Per task, a count of its writes (additions, removals): a read begun before one is not cached after it. */
  private readonly writes = new Map<string, number>();

  constructor(private readonly dataDir: string) {}

  has(task: string): boolean {
    return this.files.has(task);
  }

  /** The file holding the task's PTA, if it has one. */
  file(task: string): string | undefined {
    return this.files.get(task);
  }

  /** Every task with a PTA, sorted. */
  tasks(): string[] {
    return [...this.files.keys()].sort();
  }

  sharedTasks(): string[] {
    return this.byOwner.sharedTasks();
  }

  ownTasks(tenant: string): string[] {
    return this.byOwner.ownTasks(tenant);
  }

  /** The bytes of the task's file, as last read or written. */
  bytesOf(task: string): number | undefined {
    return this.bytes.get(task);
  }

  /** The task's file was read again: its bytes as read. */
  read(task: string, bytes: number): void {
    this.bytes.set(task, bytes);
  }

  /** The task's removal, while it has no PTA since. */
  removal(task: string): Removed | undefined {
    return this.removed.get(task);
  }

  /** The task's writes so far (undefined: none): a read compares it before and after. */
  writeCount(task: string): number | undefined {
    return this.writes.get(task);
  }

  /** The task's PTA is in `file`, of `bytes` (found at open, or just written). */
  set(task: string, file: string, bytes: number): void {
    this.removed.delete(task);
    this.files.set(task, file);
    this.byOwner.add(task);
    this.bytes.set(task, bytes);
  }

  /** The task's file holds a removal marker of `version` (found at open, or just written). */
  setRemoved(task: string, file: string, version: number): void {
    this.removed.set(task, { file, version });
  }

  /** The task has no PTA here any more (removed, or its file became unusable). */
  forget(task: string): void {
    this.wrote(task);
    this.files.delete(task);
    this.byOwner.delete(task);
    this.bytes.delete(task);
  }

  /** The task's PTA was written (added to, or removed). */
  wrote(task: string): void {
    this.writes.set(task, (this.writes.get(task) ?? 0) + 1);
  }

  /** The file a write of the task goes to: `existing` when the data folder holds it (an older name included), else the task's name there. */
  target(task: string, existing: string | undefined): string {
    return existing !== undefined && path.dirname(existing) === this.dataDir ? existing : path.join(this.dataDir, taskFileName(task));
  }
}
