/**
 * How long work that the first prompt does not need waits, so that it runs while the user
 * reads the prompt instead of before it is shown: taking a new session's lock waits
 * `AFTER_FIRST_PROMPT_MS`, or less when a line arrives sooner (`firstLineArrived`); work no
 * turn needs (loading cron for autosave, marking a resumed session's index row) waits
 * `WHEN_IDLE_MS`, so that a line piped or typed at once reaches the provider first.
 */
export const AFTER_FIRST_PROMPT_MS = 30;
export const WHEN_IDLE_MS = 1_000;

const waiting = new Set<() => void>();

/**
 * Resolves after `AFTER_FIRST_PROMPT_MS`, or at `firstLineArrived()`. The timer holds the
 * process open (a script that creates a session and appends at once must not exit while its
 * write waits for the lock); pass `unref` for work nobody awaits.
 */
export function afterFirstPrompt(options: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      waiting.delete(done);
      resolve();
    };
    const timer = setTimeout(done, AFTER_FIRST_PROMPT_MS);
    if (options.unref) timer.unref();
    waiting.add(done);
  });
}

/** A line to handle has arrived: what waits for the first prompt is needed now. */
export function firstLineArrived(): void {
  for (const done of [...waiting]) done();
}

/** Resolves after `WHEN_IDLE_MS`; never holds the process open (nobody awaits this work). */
export function whenIdle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, WHEN_IDLE_MS).unref());
}
