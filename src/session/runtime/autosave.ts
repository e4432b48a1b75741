import { createRequire } from 'node:module';
import type { SaveResult, Session } from '../api/session-api.js';
import { AutosaveSpecError } from '../api/errors.js';
import { whenIdle } from '../../util/defer.js';
import { startTicks, type TickTimer } from '../../util/cron-timer.js';

type CronModule = typeof import('cron');
const require = createRequire(import.meta.url);
let cronModule: CronModule | undefined;
/** cron (and luxon under it) loads only when a schedule needs checking or running. */
function cron(): CronModule {
  cronModule ??= require('cron') as CronModule;
  return cronModule;
}

/** A parsed `--autosave` spec. Durations become cron expressions (`30s` becomes a 6-field expression firing every 30 seconds). */
export type AutosaveSchedule =
  | { kind: 'off'; description: 'off' }
  | { kind: 'cron'; expression: string; description: string };

/** A running autosave schedule. */
export interface Autosave {
  /** Human description for the banner, e.g. `every 5 min`, `off`. */
  readonly description: string;
  /** Next time it fires, or null when off. */
  nextDate(): Date | null;
  /** Stops the timer and waits for a running tick to finish. */
  stop(): Promise<void>;
}

/** The default `--autosave` spec (docs/design.md §13). */
export const DEFAULT_AUTOSAVE_SPEC = '*/5 * * * *';

const UNITS = {
  s: { name: 's', per: 60, next: 'm', cron: (n: number) => `*/${n} * * * * *` },
  m: { name: 'min', per: 60, next: 'h', cron: (n: number) => `0 */${n} * * * *` },
  h: { name: 'h', per: 24, next: undefined, cron: (n: number) => `0 0 */${n} * * *` },
} as const;
type Unit = keyof typeof UNITS;

function divisors(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i + 1).filter((d) => n % d === 0);
}

/** A duration spec (`30s`, `5m`, `2h`) as an exact 6-field cron expression. */
function parseDuration(spec: string, amount: number, unit: Unit): AutosaveSchedule {
  const u = UNITS[unit];
  if (amount === 0) throw new AutosaveSpecError(spec, 'a duration must be at least 1');
  if (amount >= u.per && amount % u.per === 0 && u.next) {
    return parseDuration(spec, amount / u.per, u.next);
  }
  if (amount > u.per || u.per % amount !== 0) {
    const fits = divisors(u.per);
    const nearest = fits.reduce((best, d) => (Math.abs(d - amount) < Math.abs(best - amount) ? d : best));
    const suggestion = amount > u.per && u.next ? `${Math.round(amount / u.per) || 1}${u.next}` : `${nearest}${unit}`;
    throw new AutosaveSpecError(spec, `${amount}${unit} does not divide ${u.per === 60 && unit === 's' ? 'a minute' : u.per === 60 ? 'an hour' : 'a day'} evenly (try ${suggestion})`);
  }
  const expression = amount === 1 ? u.cron(1).replace('*/1', '*') : u.cron(amount);
  return { kind: 'cron', expression, description: `every ${amount} ${u.name}` };
}

/** A step of N (dividing 60) or `*` in the first field, `*` everywhere else: always valid, always fires. */
function isSimpleStep(fields: string[]): boolean {
  const m = /^(?:\*|\*\/(\d{1,2}))$/.exec(fields[0]);
  if (!m || !fields.slice(1).every((f) => f === '*')) return false;
  const n = m[1] === undefined ? 1 : Number(m[1]);
  return n >= 1 && n < 60 && 60 % n === 0;
}

/** Human text for a cron expression: `every 5 min` for the simple steps, else `cron <expr>`. */
function describe(expression: string): string {
  const f = expression.split(/\s+/);
  const step = (field: string) => /^\*\/(\d+)$/.exec(field)?.[1] ?? (field === '*' ? '1' : undefined);
  if (f.length === 5 && f.slice(1).every((x) => x === '*') && step(f[0])) return `every ${step(f[0])} min`;
  if (f.length === 6 && f.slice(1).every((x) => x === '*') && step(f[0])) return `every ${step(f[0])} s`;
  return `cron ${expression}`;
}

/**
 * Parses an `--autosave` spec: `off`, a duration that divides its unit (`30s`, `5m`, `2h`),
 * or a 5- or 6-field cron expression. Throws `AutosaveSpecError` (exit 2) for anything
 * invalid, including expressions that validate but never fire (`0 0 31 2 *`).
 */
export function parseAutosaveSpec(spec: string): AutosaveSchedule {
  const text = String(spec).trim();
  if (text === '') throw new AutosaveSpecError(spec, 'it is empty');
  if (text.toLowerCase() === 'off') return { kind: 'off', description: 'off' };
  const duration = /^(\d+)\s*(s|sec|secs|m|min|mins|h|hr|hrs)$/i.exec(text);
  if (duration) return parseDuration(spec, Number(duration[1]), duration[2][0].toLowerCase() as Unit);
  const fields = text.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    throw new AutosaveSpecError(spec, `a cron expression has 5 or 6 fields, this has ${fields.length}`);
  }
  const expression = fields.join(' ');
  // The default and its kin (every N minutes or seconds) need no cron load to be checked.
  if (isSimpleStep(fields)) return { kind: 'cron', expression, description: describe(expression) };
  const { validateCronExpression, CronTime } = cron();
  const check = validateCronExpression(expression);
  if (!check.valid) throw new AutosaveSpecError(spec, `not a valid cron expression (${check.error?.message ?? 'unknown error'})`);
  try {
    new CronTime(expression).sendAt();
  } catch {
    throw new AutosaveSpecError(spec, 'it never fires');
  }
  return { kind: 'cron', expression, description: describe(expression) };
}

/**
 * Starts autosaving `session` on `schedule` (docs/design.md §13): a timer on cron's dates that waits
 * for a running tick, never holds the process open, never prints, and reports failures through `onError` (or the
 * session's warnings) instead of throwing. A tick is `session.save({ ifChanged: true })`,
 * which takes the session's mutex, so it never overlaps another save.
 */
export function startAutosave(
  session: Session,
  schedule: AutosaveSchedule,
  options: { onError?(err: unknown): void; onSaved?(r: SaveResult): void } = {},
): Autosave {
  if (schedule.kind === 'off') {
    const off: Autosave = { description: 'off', nextDate: () => null, stop: () => Promise.resolve() };
    started.set(off, { ready: Promise.resolve(), startNow: () => undefined });
    return off;
  }
  let warned = false;
  const report = (err: unknown) => {
    if (options.onError) options.onError(err);
    else if (!warned && 'warn' in session && typeof session.warn === 'function') {
      warned = true; // once, quietly: the user keeps typing
      (session as { warn(message: string): void }).warn(`Autosave failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  let stopped = false;
  const build = (mod: CronModule): TickTimer =>
    startTicks(
      new mod.CronTime(schedule.expression),
      async () => {
        // A session whose lock was lost writes nothing; the loss was reported once already.
        if (session.readOnly) return;
        const result = await session.save({ ifChanged: true, trigger: 'autosave' });
        if (result.saved) options.onSaved?.(result);
      },
      report,
    );
  // cron and luxon take tens of milliseconds to load: unless already loaded, they load (and
  // the job starts) a moment later, off the path to the first prompt and the first request.
  let job = cronModule ? build(cronModule) : undefined;
  let startNow: () => void = () => undefined;
  const ready = job
    ? Promise.resolve()
    : Promise.race([whenIdle(), new Promise<void>((resolve) => (startNow = resolve))])
        .then(() => (stopped ? undefined : import('cron')))
        .then((mod) => {
          if (!mod || stopped) return;
          // A CommonJS module: its exports are the namespace's default, both in Node and in the CLI's bundle.
          cronModule ??= (mod as CronModule & { default?: CronModule }).default ?? mod;
          job = build(cronModule);
        }, report);
  const autosave: Autosave = {
    description: schedule.description,
    nextDate: () => (job ? job.nextDate() : new (cron().CronTime)(schedule.expression).sendAt().toJSDate()),
    stop: async () => {
      stopped = true;
      startNow(); // a stop before the deferred start ends the wait (and loads nothing)
      await ready;
      await job?.stop();
    },
  };
  started.set(autosave, { ready, startNow: () => startNow() });
  return autosave;
}

const started = new WeakMap<Autosave, { ready: Promise<void>; startNow(): void }>();

/** Starts the deferred timer now and resolves once it runs (for tests under fake timers). */
export function autosaveStarted(autosave: Autosave): Promise<void> {
  const entry = started.get(autosave);
  entry?.startNow();
  return entry?.ready ?? Promise.resolve();
}
