/**
 * Group commit: work items that arrive while a batch is being committed wait and are committed
 * together in the next one (the stores' batched `adopt`, docs/design.md §7). Items arriving in the
 * same turn of the event loop as the first join its batch.
 */
export class GroupCommit<T> {
  private waiting: T[] = [];
  private running = false;

  constructor(
    private readonly most: number,
    /** Commits one batch; must settle each item itself, and never reject. */
    private readonly commit: (batch: T[]) => Promise<void>,
  ) {}

  add(item: T): void {
    this.waiting.push(item);
    if (this.running) return;
    this.running = true;
    void (async () => {
      await new Promise((resolve) => setImmediate(resolve));
      while (this.waiting.length > 0) await this.commit(this.waiting.splice(0, this.most));
    })().finally(() => {
      this.running = false;
      const left = this.waiting.splice(0);
      for (const item of left) this.add(item);
    });
  }
}
