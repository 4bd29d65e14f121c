/**
 * Work queued per task: each runs once the one before it for the same task settled (failed too), so concurrent
 * additions and removals of one task never lose one another; tasks do not wait on each other.
 */
export class TaskQueue {
  private readonly locks = new Map<string, Promise<unknown>>();

  /** Runs `work` after the task's queued work, and lets go of the queue once it is the last. */
  run<T>(task: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(task) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(work);
    return this.serialised(task, run);
  }

  private async serialised<T>(task: string, run: Promise<T>): Promise<T> {
    this.locks.set(task, run);
    try {
      return await run;
    } finally {
      if (this.locks.get(task) === run) this.locks.delete(task);
    }
  }

  /** Waits for every work queued now. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.locks.values()]);
  }
}
