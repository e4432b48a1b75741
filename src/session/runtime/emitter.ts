/** Warnings for the embedder; kept until someone listens, so none is lost before the first prompt. */
export class WarningChannel {
  private readonly listeners = new Set<(message: string) => void>();
  private queued: string[] = [];

  emit(message: string): void {
    if (this.listeners.size === 0) {
      this.queued.push(message);
      return;
    }
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch {
        // a listener's failure must not break the writer that warned
      }
    }
  }

  subscribe(listener: (message: string) => void): () => void {
    this.listeners.add(listener);
    const queued = this.queued;
    this.queued = [];
    for (const message of queued) this.emit(message);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
