/**
 * Errors a user (or an embedding program's user) can cause. Each carries a plain message (what
 * went wrong, in no program's words), what to do about it as data (`advice`), and the process
 * exit code the CLI uses for it (docs/design.md §1, §17: 2 bad usage or input, 3 session in use). The message is made
 * once, in the constructor, and never changed: each host words the advice itself (the CLI as
 * `chatkeep sessions list --all`, a REPL host as its own `/sessions --all` or `.sessions --all`,
 * a library caller as it likes). Anything that is not a `ChatkeepError` is a bug.
 */
import { visibleText } from '../text/visible-text.js';

/**
 * What a person can do about an error, as data. `to` leads to the command (`List sessions
 * with:`); the command is given in each form a host may offer, and a host shows the one it has
 * (none: the message stands alone).
 */
export interface Advice {
  /** The sentence that leads to the command, as it joins it: `List sessions with:`, `The admin should run`. */
  readonly to: string;
  /** A subcommand of the program (`['sessions', 'list', '--all']`): what a CLI prints, after its own name. */
  readonly run?: readonly string[];
  /** A command typed in a chat (`{ name: 'sessions', args: ['--all'] }`): a REPL host writes it with its own prefix and name for it. */
  readonly slash?: { readonly name: string; readonly args?: readonly string[] };
  /** The library call that does it (`sessions.list({ all: true })`), for a program that words its own way. */
  readonly call?: string;
}

export class ChatkeepError extends Error {
  /** Stable machine-readable code, e.g. `E_UNKNOWN_SESSION`. */
  readonly code: string;
  /** Exit code the CLI uses when this error ends the program. */
  readonly exitCode: number;
  /** What to do about it, for the host to word (absent: nothing but what the message says). */
  readonly advice?: Advice;
  constructor(message: string, code: string, exitCode: number, advice?: Advice) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
    if (advice) this.advice = advice;
  }
}

/** Bad usage or bad input: exit code 2. */
export class UserError extends ChatkeepError {
  constructor(message: string, code = 'E_USAGE', exitCode = 2, advice?: Advice) {
    super(message, code, exitCode, advice);
  }
}

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
  ) {
    super(`another process took session ${id} over (this process's epoch ${epoch} is superseded)`, 'E_LOCK_SUPERSEDED', 1);
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

/** Shows control characters and over-long input safely inside a one-line message. */
export function printable(text: string, max = 60): string {
  // eslint-disable-next-line no-control-regex
  const shown = visibleText(JSON.stringify(text).slice(1, -1).replace(/[\u0000-\u001f\u007f]/g, '?'));
  return shown.length > max ? `${shown.slice(0, max)}…` : shown;
}

/** A message given to `append()` (or a reply's `finish()`) that chatkeep cannot store as it is. */
export class InvalidMessageError extends UserError {
  constructor(
    /** Where in the message: `role`, `toolCalls[0].arguments`, `parts[2].type`. */
    readonly field: string,
    reason: string,
  ) {
    super(`Bad message: \`${field}\` ${reason}.`, 'E_INVALID_MESSAGE');
  }
}

/**
 * A part of the library needs a package that is an optional peer dependency (`pg` for a
 * PostgreSQL store), and the program using chatkeep did not install it.
 */
export class MissingPackageError extends UserError {
  constructor(
    readonly packageName: string,
    /** What needs it, for the message (`A PostgreSQL store`). */
    readonly neededBy: string,
  ) {
    super(`${neededBy} needs the package \`${packageName}\`, which is not installed: npm install ${packageName}`, 'E_MISSING_PACKAGE');
  }
}

/**
 * A program called the library with an option (or argument) it does not take: `call` is the
 * function (`openSessions`, `create`), `option` the option's name (undefined: the argument itself).
 */
export class BadOptionError extends UserError {
  constructor(
    readonly call: string,
    readonly option: string | undefined,
    /** What was wrong and what it takes, in words. */
    detail: string,
  ) {
    super(`${call}: ${detail}`, 'E_BAD_OPTION');
  }
}

/**
 * The session is held open by this very program (resumed or created here and not closed): a
 * second handle would be a second writer. Carry on with the one it has (`sessions.opened(id)`
 * returns it), or close that one first. Exit code 3, as for a session held elsewhere.
 */
export class SessionOpenHereError extends UserError {
  constructor(readonly id: string) {
    super(`Session ${id} is already open in this program: carry on in it, or close it before opening it again.`, 'E_SESSION_OPEN_HERE', 3);
  }
}

/** `create({ id })` of an ID that is taken, or was ever issued in this store (IDs are never reused). */
export class SessionExistsError extends UserError {
  constructor(readonly id: string) {
    super(`Session ID ${id} is already taken in this store (IDs are never reused, even after a session is deleted): choose another, or resume it.`, 'E_SESSION_EXISTS');
  }
}

/** An assistant's API key is not in the environment (`OPENAI_API_KEY`): its advice is to chat offline. */
export class MissingApiKeyError extends UserError {
  constructor(readonly variable: string) {
    super(`${variable} is not set: export it.`, 'E_NO_API_KEY', 2, { to: 'Or chat offline:', run: ['--provider', 'echo'], slash: { name: 'provider', args: ['echo'] } });
  }
}

/** `uncompact()` with no compaction to undo: none since the conversation began or was last cleared. */
export class NothingToUncompactError extends UserError {
  constructor() {
    super('Nothing to uncompact: this conversation has not been compacted since it began or was last reset.', 'E_NOTHING_TO_UNCOMPACT');
  }
}

/** `uncompact()` in place after messages were added since the compaction: they were answered against its summary. */
export class AddedSinceCompactionError extends UserError {
  constructor(id: string) {
    super(`Messages were added to ${id} since its last compaction: it can be undone in a fork only.`, 'E_ADDED_SINCE_COMPACTION', 2, {
      to: 'Make that fork with:',
      slash: { name: 'uncompact' },
      call: `sessions.fork('${id}', { uncompact: true })`,
    });
  }
}
