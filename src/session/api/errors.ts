/**
 * Errors a user (or an embedding program's user) can cause. Each carries a plain message (what
 * went wrong, in no program's words), what to do about it as data (`advice`), and the process
 * exit code the CLI uses for it (docs/design.md §1, §17: 2 bad usage or input, 3 session in use). The message is made
 * once, in the constructor, and never changed: each host words the advice itself (the CLI as
 * `chatkeep sessions list --all`, a REPL host as its own `/sessions --all` or `.sessions --all`,
 * a library caller as it likes). Anything that is not a `ChatkeepError` is a bug.
 */
import { ChatkeepError, UserError, printable, type Advice } from './error-base.js';

export { ChatkeepError, UserError, printable, type Advice } from './error-base.js';
export * from './caller-errors.js';


/** An ID from outside that does not match the allowed pattern; refused before any path is built. */
export class InvalidIdError extends UserError {
  constructor(readonly id: string) {
    super(
      `Invalid session ID \`${printable(id)}\`: IDs are 1–128 letters, digits, '.', '_' or '-', starting with a letter or digit.`,
      'E_INVALID_ID',
    );
  }
}

/** No session has this ID or ID prefix. */
export class UnknownSessionError extends UserError {
  constructor(readonly id: string) {
    super(`No session \`${printable(id)}\`.`, 'E_UNKNOWN_SESSION', 2, {
      to: 'List sessions with:',
      run: ['sessions', 'list', '--all'],
      slash: { name: 'sessions', args: ['--all'] },
      call: 'sessions.list({ all: true })',
    });
  }
}

/** The session was moved to the trash (`sessions rm`, `prune`): it is not opened or listed until restored. */
export class TrashedSessionError extends UserError {
  constructor(readonly id: string) {
    super(`Session ${id} is in the trash.`, 'E_IN_TRASH', 2, { to: 'Restore it with:', run: ['sessions', 'restore', id], call: `sessions.restore('${id}')` });
  }
}

/** `restore` of an ID the trash does not hold. */
export class NotInTrashError extends UserError {
  constructor(readonly id: string) {
    super(`No session \`${id}\` in the trash.`, 'E_NOT_IN_TRASH', 2, { to: 'See what is there with:', run: ['sessions', 'trash'], call: 'sessions.listTrash()' });
  }
}

/** An ID prefix that matches more than one session. */
export class AmbiguousIdError extends UserError {
  constructor(
    readonly prefix: string,
    readonly matches: string[],
  ) {
    super(
      `Session ID prefix \`${printable(prefix)}\` matches ${matches.length} sessions (${matches.slice(0, 3).join(', ')}${matches.length > 3 ? ', …' : ''}): type more of it.`,
      'E_AMBIGUOUS_ID',
    );
  }
}

/** Who holds a session's lock, as recorded in `lock.owner.json`. */
export interface LockOwner {
  pid: number;
  host: string;
  /** When the holder took the lock (ISO string). */
  startedAt: string;
}

/** The session is held by another live process: exit code 3. */
export class SessionInUseError extends ChatkeepError {
  constructor(
    readonly id: string,
    readonly owner: LockOwner | undefined,
    /** How long the holder has had it, in words (`12 minutes ago`); the start time as recorded otherwise. */
    since?: string,
  ) {
    const who = owner ? `process ${owner.pid} on ${owner.host} (since ${since ?? owner.startedAt})` : 'another process';
    // A way out that needs nothing of the holder: a copy of the conversation to carry on in.
    super(`Session ${id} is in use by ${who}: quit it there first.`, 'E_SESSION_IN_USE', 3, { to: 'Or continue in a copy of it:', run: ['--fork', id], call: `sessions.fork('${id}')` });
  }
}

/** A file written by a newer chatkeep: refused, and never overwritten. */
export class FutureSchemaError extends UserError {
  constructor(
    readonly file: string,
    readonly found: number,
    readonly known: number,
    /** The version of chatkeep that wrote the file, when it recorded one: the least that reads it. */
    readonly writtenBy?: string,
  ) {
    super(
      `\`${file}\` has schemaVersion ${found}, newer than this chatkeep understands (${known})${writtenBy ? `: it needs chatkeep ≥ ${writtenBy}` : ''}. Upgrade chatkeep to open it; the file was left untouched.`,
      'E_FUTURE_SCHEMA',
    );
  }
}

/** The store keeps no trash (a store may leave it out, docs/design.md §7): nothing was moved or restored. */
export class NoTrashError extends UserError {
  constructor(readonly location: string) {
    super(`The session store at ${location} keeps no trash: nothing was moved, restored or removed.`, 'E_NO_TRASH');
  }
}

/** The store cannot be reached or refused the work (a server down, a disk gone); what was typed was not saved. */
export class StoreUnavailableError extends ChatkeepError {
  constructor(message: string) {
    super(message, 'E_STORE_UNAVAILABLE', 1);
  }
}

/** A store whose schema a newer chatkeep created: refused, and left untouched. */
export class FutureStoreSchemaError extends UserError {
  constructor(
    readonly location: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      `The session store at ${location} has schema version ${found}, newer than this chatkeep understands (${known}). Upgrade chatkeep to use it; the store was left untouched.`,
      'E_FUTURE_SCHEMA',
    );
  }
}

/** A write was attempted while the session's lock is lost (compromised): nothing was written. */
export class ReadOnlySessionError extends ChatkeepError {
  constructor(
    readonly id: string,
    /** Why the lock was lost, when the store itself went away (its connection dropped). */
    readonly storeGone?: StoreUnavailableError,
  ) {
    super(
      storeGone
        ? `${storeGone.message.replace(/\.$/, '')}: nothing of session ${id} is written until it is back.`
        : `Session ${id} is read-only: its lock was lost, so nothing is written until it is held again.`,
      'E_READ_ONLY',
      1,
    );
  }
}

/**
 * A store refused a write because the writer's epoch (its fencing token, taken with the lock) is
 * no longer the session's: another process took the session over. Nothing was written; the
 * session turns read-only (`ReadOnlySessionError` from then on), as after any lost lock.
 */
export class LockSupersededError extends ChatkeepError {
  constructor(
    readonly id: string,
    readonly epoch: number,
    message = `another process took session ${id} over (this process's epoch ${epoch} is superseded)`,
    code = 'E_LOCK_SUPERSEDED',
    advice?: Advice,
  ) {
    super(message, code, 1, advice);
  }
}

/**
 * A write to another role's shared session refused because its owner stopped sharing it (or made
 * it read-only) while this process held it: a superseded lock as far as writing goes, but no
 * process to wait for and nothing to resume. What this process holds goes on in a fork of one's own.
 */
export class ShareRevokedError extends LockSupersededError {
  constructor(
    id: string,
    epoch: number,
    /** The owner's role, when this role can still see the session (shared read-only now). */
    readonly owner?: string,
  ) {
    super(id, epoch, `${owner ?? 'The owner'} stopped sharing session ${id} with you for writing: nothing more of yours is written to it.`, 'E_SHARE_REVOKED', {
      to: 'Keep what this process holds in a session of your own with',
      call: 'sessions.fork(session)',
    });
  }
}

/**
 * A write to this role's own session refused because the session was deleted from the store (by
 * hand, in SQL) while this process held it: no process to wait for and nothing to resume. What
 * this process holds goes on in a fork of one's own, as after a share revoked.
 */
export class SessionDeletedError extends LockSupersededError {
  constructor(id: string, epoch: number) {
    super(id, epoch, `Session ${id} was deleted from the store while this process held it: nothing more of yours is written to it.`, 'E_SESSION_DELETED', {
      to: 'Keep what this process holds in a session of your own with',
      call: 'sessions.fork(session)',
    });
  }
}

/** A call on a session after `close()`: nothing was written. */
export class SessionClosedError extends ChatkeepError {
  constructor(readonly id: string) {
    super(`Session ${id} is closed: resume it to write to it again.`, 'E_SESSION_CLOSED', 1);
  }
}

/** A call on a session manager after its `close()`: nothing was read or written. */
export class SessionsClosedError extends ChatkeepError {
  constructor() {
    super('These sessions were closed: open them again to use them.', 'E_SESSIONS_CLOSED', 1);
  }
}

/** A stored part of a session that does not parse or validate (it is never overwritten: loading moves it aside). */
export class DamagedFileError extends ChatkeepError {
  constructor(
    /** What is damaged: a file's path, or where a store keeps the part. */
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`, 'E_DAMAGED', 1);
  }
}

/** Another process kept a short-lived guard (the index, a lock takeover) for longer than the caller waits. */
export class GuardBusyError extends ChatkeepError {
  constructor(readonly holderPid: number | undefined) {
    super('another process keeps the session busy', 'E_BUSY', 1);
  }
}

/** A streamed reply used after `finish()`, or finished twice: a bug of the caller's. */
export class ReplyFinishedError extends ChatkeepError {
  constructor(readonly replyId: string) {
    super(`Reply ${replyId} is already finished.`, 'E_REPLY_FINISHED', 1);
  }
}

/** A file named in a chat (`/export md ../x.md`) that would be written outside the host's directory: nothing was written. */
export class OutsideDirectoryError extends UserError {
  constructor(readonly file: string, readonly directory: string) {
    super(`Cannot write \`${printable(file)}\`: it is outside ${directory}, and this chat writes only under it. Name a file inside it.`, 'E_OUTSIDE_DIRECTORY');
  }
}

/** A bad `--autosave` spec (invalid, or a cron expression that never fires). */
export class AutosaveSpecError extends UserError {
  constructor(
    readonly spec: string,
    reason: string,
  ) {
    super(
      `Bad autosave schedule \`${printable(spec)}\`: ${reason}. Use off, a duration such as 30s or 5m, or a cron expression such as "*/5 * * * *".`,
      'E_AUTOSAVE_SPEC',
    );
  }
}
