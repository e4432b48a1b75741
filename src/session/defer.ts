/**
 * How long work that the first prompt does not need (loading proper-lockfile for a new
 * session's lock, loading cron for autosave) waits, so that it runs while the user reads the
 * prompt instead of before it is shown.
 */
export const AFTER_FIRST_PROMPT_MS = 30;

/**
 * Resolves after `AFTER_FIRST_PROMPT_MS`. The timer holds the process open (a script that
 * creates a session and appends at once must not exit while its write waits for the lock);
 * pass `unref` for work nobody awaits.
 */
export function afterFirstPrompt(options: { unref?: boolean } = {}): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, AFTER_FIRST_PROMPT_MS);
    if (options.unref) timer.unref();
  });
}
