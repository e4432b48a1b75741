/**
 * What each call of the library takes, described once (src/session/api/check-options.ts checks it):
 * the option types in types.ts say the same in TypeScript, these say it to a program that
 * calls from JavaScript or passes what it got from elsewhere.
 */
import { anyText, callback, date, flag, nullableText, oneOf, sessionId, shape, stringRecord, text, wholeNumber } from './check-options.js';

/** `openSessions(options)` (`home` and `cwd` required). */
export const OPEN_OPTIONS = {
  home: text,
  cwd: text,
  redact: flag,
  env: stringRecord,
  toolVersion: text,
  now: callback,
  lockStaleMs: wholeNumber(2000),
  store: text,
  persist: flag,
};

/** A provider and model (`setProvider`, `create({ provider })`). */
export const PROVIDER = shape({ name: text, model: nullableText }, ['name', 'model']);
const provider = PROVIDER;

/** `create(options)` and `open(id, options)`. */
export const CREATE_OPTIONS = { id: sessionId, title: anyText, provider };
export const OPEN_SESSION_OPTIONS = { title: anyText, provider };
export const LIST_OPTIONS = { all: flag, query: anyText, branch: anyText, project: text, empty: flag, limit: wholeNumber(1) };
export const SEARCH_OPTIONS = { all: flag, limit: wholeNumber(0), snippets: flag };
export const FORK_OPTIONS = { at: wholeNumber(0), title: anyText, archived: wholeNumber(0), uncompact: flag };
export const EMPTY_TRASH_OPTIONS = { olderThan: date };
export const SAVE_OPTIONS = { title: anyText, ifChanged: flag, trigger: oneOf(['save', 'autosave', 'close', 'reset', 'recovery']) };
export const REDACTOR_OPTIONS = { env: stringRecord };
