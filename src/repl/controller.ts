/**
 * The controller owns "the current session" for a host (docs/design.md §14): it opens one (new, by ID,
 * the latest, a fork), switches on /load and /fork (the old one saved and released, the new
 * one's lock taken, the autosave restarted), follows a lost lock (taken back, or a fork), and
 * leaves (close, then the exit lines written for the host's program). It never prints: what
 * happens comes out as events and lines for the host to render.
 */
import { parseAutosaveSpec, startAutosave } from '../session/runtime/autosave.js';
import { ReadOnlySessionError, UserError } from '../session/api/errors.js';
import { totalStats } from '../session/runtime/status.js';
import type { Autosave, AutosaveSchedule } from '../session/runtime/autosave.js';
import type { Message, NewMessage } from '../session/api/data.js';
import type { SaveResult, Session } from '../session/api/session-api.js';
import type { SessionManager } from '../session/runtime/manager-api.js';
import { emptyLines, failedCloseLines, lossNotice, lostExitLines, savedLines, unsavedLines, type Leaving } from './exit-lines.js';
import type { HostName } from './host.js';
import { errorLine } from './host-words.js';
import { checkControllerOptions, hostNamed } from './host-options.js';

/** What the controller tells its host; render what you like, ignore the rest. */
export type ControllerEvent =
  /** `session` is current now; `closed` is what closing the previous one wrote (undefined when it could not be closed). */
  | { type: 'switched'; from: string; session: Session; closed: SaveResult | undefined; reason: 'load' | 'fork' | 'lock-lost' }
  /** A snapshot was written by `save()` or by the autosave timer. */
  | { type: 'saved'; result: SaveResult; trigger: 'save' | 'autosave' }
  /** Something the user should know that stops nothing (an autosave failure, a damaged file recovered, a close that failed). */
  | { type: 'warning'; message: string }
  /** The lock was lost and the chat goes on in `session` (the same one taken back, or a fork): `notice` says which. */
  | { type: 'lock-lost'; id: string; session: Session; notice: string };

/** How the autosave runs: a spec (`5m`, `30s`, a cron expression, `off`), a parsed schedule, or the host's own timer. */
export type AutosaveOption =
  | string
  | AutosaveSchedule
  | { description: string; start(session: Session, hooks: { onError(err: unknown): void; onSaved(result: SaveResult): void }): Autosave };

export interface ControllerOptions {
  sessions: SessionManager;
  /** The host's program and flag (or only the program's name): every printed command is written for it. */
  host: HostName | string;
  /** Default `*\/5 * * * *` (every five minutes). */
  autosave?: AutosaveOption;
  /** False with `--no-persist`: leaving says nothing was saved (default true). */
  persistent?: boolean;
}

/** Which session to open: `resume` an ID or unique prefix, `continue` the latest of this project, `fork` one; else a new one. */
export interface OpenOptions {
  resume?: string;
  continue?: boolean;
  /** With `continue`, when this project has no session yet: true (the default) opens a new one, false refuses (`E_NO_SESSION`, exit code 2). */
  newWhenNone?: boolean;
  fork?: { from: string; at?: number; title?: string };
  title?: string;
}

export class SessionController {
  readonly sessions: SessionManager;
  readonly host: HostName;
  readonly persistent: boolean;
  /** The autosave's schedule in words (`every 5 min`, `off`), for a banner. */
  readonly autosaveDescription: string;
  #session: Session;
  #autosave: Autosave | undefined;
  #autosaveWarned = false;
  #stopWarnings: () => void;
  readonly #listeners = new Set<(event: ControllerEvent) => void>();
  readonly #timer: Exclude<AutosaveOption, string | AutosaveSchedule>;

  /** Opens (or creates) the session `options` name and returns its controller; the autosave starts with `startAutosave()`. */
  static async open(options: ControllerOptions & OpenOptions): Promise<SessionController> {
    const { sessions } = checkControllerOptions('SessionController.open', options, true);
    if (options.resume !== undefined) return new SessionController(options, await sessions.resume(options.resume), 'resumed');
    if (options.fork) {
      const { from, ...at } = options.fork;
      return new SessionController(options, await sessions.fork(from, at), 'forked');
    }
    const latest = options.continue ? await sessions.latest() : undefined;
    if (latest) return new SessionController(options, await sessions.resume(latest.id), 'resumed');
    if (options.continue && options.newWhenNone === false) throw noSessionYet(sessions.project.path);
    return new SessionController(options, await sessions.create(options.title !== undefined ? { title: options.title } : {}), 'new');
  }

  /**
   * Controls `session`, already open and held (its lock taken). `opened`: how it came to be
   * open (`continue` with no session before makes a new one).
   */
  constructor(options: ControllerOptions, session: Session, readonly opened: 'new' | 'resumed' | 'forked' = 'new') {
    checkControllerOptions('SessionController', options, true);
    this.sessions = options.sessions;
    this.host = hostNamed(options.host);
    this.persistent = options.persistent !== false;
    this.#timer = timerOf(options.autosave ?? '*/5 * * * *');
    this.autosaveDescription = this.#timer.description;
    this.#session = session;
    this.#stopWarnings = this.#watch(session);
  }

  /** The current session (it changes on a switch). */
  get session(): Session {
    return this.#session;
  }

  /** The running autosave, once started. */
  get autosave(): Autosave | undefined {
    return this.#autosave;
  }

  /** Listens to what happens; returns the way to stop listening. */
  on(listener: (event: ControllerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Starts autosaving the current session (once; a host may wait until its first prompt is up). */
  startAutosave(): void {
    this.#autosave ??= this.#timer.start(this.#session, {
      onError: (err) => {
        if (this.#autosaveWarned) return;
        this.#autosaveWarned = true;
        this.#emit({ type: 'warning', message: `Autosave failed (${err instanceof Error ? err.message : String(err)}); saving by hand and leaving still save.` });
      },
      onSaved: (result) => this.#emit({ type: 'saved', result, trigger: 'autosave' }),
    });
  }

  /** Writes a snapshot now (optionally titling the session). */
  async save(options: { title?: string } = {}): Promise<SaveResult> {
    const result = await this.#session.save(options);
    if (result.saved) this.#emit({ type: 'saved', result, trigger: 'save' });
    return result;
  }

  /** Resumes `idOrPrefix` and makes it current (the current one is saved and released). Its lock is taken first: held elsewhere, nothing changes. */
  async load(idOrPrefix: string): Promise<SaveResult | undefined> {
    return this.switchTo(await this.sessions.resume(idOrPrefix), 'load');
  }

  /** Continues in a fork of the current session (its first `at` messages); the current one is saved and released. */
  async fork(options: { at?: number; title?: string } = {}): Promise<SaveResult | undefined> {
    return this.switchTo(await this.sessions.fork(this.#session, options), 'fork');
  }

  /**
   * Appends `messages` to the current session in order, each durable once the promise resolves.
   * A lost lock found by the first write (nothing stored) is followed (`recover`) and the
   * messages go where the conversation goes on.
   */
  async append(...messages: NewMessage[]): Promise<Message[]> {
    const stored: Message[] = [];
    for (const message of messages) {
      const session = this.#session;
      try {
        stored.push(await session.append(message));
      } catch (err) {
        if (!(err instanceof ReadOnlySessionError)) throw err;
        await this.recover();
        stored.push(await this.#session.append(message));
      }
    }
    return stored;
  }

  /** Clears the live conversation, keeping the ID; the cleared messages are archived inside the session. Resolves to how many were archived. */
  async reset(): Promise<number> {
    const count = this.#session.messages.length;
    if (count > 0) await this.#session.reset();
    return count;
  }

  /** Makes `next` (open and held) current: the autosave stops, the old session is closed (saved unless its lock was lost), the autosave restarts on `next`. */
  async switchTo(next: Session, reason: 'load' | 'fork' | 'lock-lost'): Promise<SaveResult | undefined> {
    const from = this.#session;
    const running = this.#autosave !== undefined;
    await this.#autosave?.stop().catch(() => {});
    this.#autosave = undefined;
    this.#stopWarnings();
    const closed = await from.close().catch((err: unknown) => {
      this.#emit({ type: 'warning', message: `Could not close ${from.id}: ${errorLine(err, { host: this.host })}` });
      return undefined;
    });
    this.#session = next;
    this.#stopWarnings = this.#watch(next);
    if (running) this.startAutosave();
    this.#emit({ type: 'switched', from: from.id, session: next, closed, reason });
    return closed;
  }

  /** The lost-lock path: the current session taken back when nobody wrote to it meanwhile, else the chat goes on in a fork of it. Resolves to what to tell the user. */
  async recover(): Promise<string> {
    const lost = this.#session;
    const outcome = await lost.retake();
    const fork = outcome.retaken ? undefined : await this.sessions.fork(lost);
    const notice = lossNotice(lost.id, outcome, fork, lost.messages.length);
    if (fork) await this.switchTo(fork, 'lock-lost');
    this.#emit({ type: 'lock-lost', id: lost.id, session: this.#session, notice });
    return notice;
  }

  /**
   * Leaves: stops the autosave, closes the session (saved, released; a lost lock taken back if
   * that is safe) and resolves to the exit lines (`Saved …`, `Resume with: …` in the host's
   * words) and the exit code. Never throws.
   */
  async leave(): Promise<Leaving> {
    const session = this.#session;
    await this.#autosave?.stop().catch(() => {});
    this.#stopWarnings();
    if (!this.persistent) {
      await session.close().catch(() => undefined);
      return { code: 0, lines: unsavedLines(session) };
    }
    try {
      const outcome = session.readOnly ? await session.retake() : undefined;
      const result = await session.close();
      if (result.empty && !session.readOnly) return { code: 0, lines: emptyLines(result.id) };
      if (!result.saved) {
        // Lost before or while closing: say who holds it now, if anyone alive does.
        const lost = outcome ?? { retaken: false as const, holder: await this.sessions.holder(session.id).catch(() => undefined) };
        return { code: 0, lines: lostExitLines(this.host, session, lost) };
      }
      return { code: 0, lines: savedLines(this.host, result, totalStats(session)) };
    } catch (err) {
      return { code: 1, lines: failedCloseLines(this.host, session.id, errorLine(err, { host: this.host })) };
    }
  }

  #watch(session: Session): () => void {
    return session.onWarning((message) => this.#emit({ type: 'warning', message }));
  }

  #emit(event: ControllerEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}

function timerOf(option: AutosaveOption): Exclude<AutosaveOption, string | AutosaveSchedule> {
  if (typeof option === 'object' && 'start' in option) return option;
  const schedule = typeof option === 'string' ? parseAutosaveSpec(option) : option;
  return { description: schedule.description, start: (session, hooks) => startAutosave(session, schedule, hooks) };
}

/** `continue` with nothing to continue, where that is refused (`newWhenNone: false`). */
export function noSessionYet(project: string): UserError {
  return new UserError(`No session to resume in ${project} yet.`, 'E_NO_SESSION', 2, { to: 'Start one with:', run: [] });
}
