/**
 * How long work that nobody awaits waits (marking a resumed session's listing row open): a
 * line piped or typed at once reaches the provider first.
 */
export const WHEN_IDLE_MS = 1_000;

/** Resolves after `WHEN_IDLE_MS`; never holds the process open (nobody awaits this work). */
export function whenIdle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, WHEN_IDLE_MS).unref());
}
