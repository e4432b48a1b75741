/**
 * The autosave's timer. The dates come from cron's `CronTime`; the timer is this one, because
 * cron's `CronJob` prints `[Cron] Missed execution deadline …` with `console.warn` whenever the
 * event loop was busy when a tick fell due (a loaded machine, a large paste), over the user's
 * typing, and offers no option to stop it: a library embedded in a REPL must never print. Here
 * a late tick simply runs late.
 */

/** What the timer needs of cron's `CronTime`: the next date after now. */
export interface CronDates {
  sendAt(): { toMillis(): number };
}

export interface TickTimer {
  /** When the next tick is due. */
  nextDate(): Date;
  /** No tick starts after this; resolves once a running tick has finished. */
  stop(): Promise<void>;
}

/** setTimeout's longest wait; a longer one is waited in pieces. */
const MAX_DELAY = 2 ** 31 - 1;

/**
 * Runs `tick` at each date of `dates`, one at a time (a tick that runs past the next date
 * delays it, never overlaps it), without holding the process open. A tick's failure goes to
 * `onError` and the schedule goes on.
 */
export function startTicks(dates: CronDates, tick: () => Promise<void>, onError: (err: unknown) => void): TickTimer {
  let due = dates.sendAt().toMillis();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const arm = (): void => {
    if (stopped) return;
    timer = setTimeout(fire, Math.min(Math.max(0, due - Date.now()), MAX_DELAY));
    timer.unref();
  };
  const fire = (): void => {
    if (Date.now() < due) return arm();
    running = tick()
      .catch(onError)
      .finally(() => {
        running = undefined;
        due = dates.sendAt().toMillis();
        arm();
      });
  };
  arm();
  return {
    nextDate: () => new Date(due),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
