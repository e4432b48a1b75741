/**
 * Errors of a library caller's own making: a message, an option or a package it gave, a session
 * it holds or chose, a compaction it asked to undo (errors.ts says what every error carries).
 */
import { UserError, printable } from './error-base.js';

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
