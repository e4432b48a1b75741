/**
 * A framework's own ID for a conversation (an Agents SDK or LangChain session ID, an AI SDK chat
 * ID, a LangGraph thread ID) and the chatkeep session it names: the one mapping every adapter
 * uses. A key that is a valid session ID is that session's ID, so a session listed by chatkeep
 * opens by its ID. Any other key (`user:42`, `ann@example.com`) names the session
 * `<the key's letters and digits>-<12 hex digits of its SHA-256>`: the same session every time,
 * in every process, and a valid ID (a path component) whatever the key holds. Such a session is
 * created with the key as its title, so `sessions list` and `show` name it by the key.
 *
 * A key is exact: `user-1` is its own session beside `user-12`, never taken for it, and never
 * refused as the start of it (`openOrCreateFor`; a library caller's `openOrCreate` refuses such
 * an ID with `PrefixNotIdError`, since a person may have meant the longer one).
 */
import { createHash } from 'node:crypto';
import { checkArgument, text } from '../session/api/check-options.js';
import { isValidId } from '../session/api/ids.js';
import { PrefixNotIdError } from '../session/api/adapter-errors.js';
import { SessionExistsError } from '../session/api/caller-errors.js';
import type { Session } from '../session/api/session-api.js';
import type { SessionManager } from '../session/runtime/manager-api.js';

/** Room left for the hash and its dash within the 128 characters an ID may have. */
const SLUG_MAX = 100;

/** The session ID a framework's key names (`BadOptionError` for a key that is not a non-empty string). */
export function sessionIdFor(key: string): string {
  checkArgument('sessionIdFor', 'key', key, text);
  if (isValidId(key)) return key;
  const slug = key
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 12);
  return `${slug || 'key'}-${hash}`;
}

/** What a session made for `key` is created with: the key as its title when the ID does not spell it. */
export function createOptionsFor(key: string): { title?: string } {
  return isValidId(key) ? {} : { title: key };
}

/**
 * The session `key` names, opened, or made when there is none. Exact: a key whose ID is only the
 * start of stored IDs gets a session of its own (made here, or by another process meanwhile).
 */
export async function openOrCreateFor(sessions: Pick<SessionManager, 'openOrCreate' | 'create' | 'resume'>, key: string): Promise<Session> {
  const id = sessionIdFor(key);
  const options = createOptionsFor(key);
  try {
    return await sessions.openOrCreate(id, options);
  } catch (err) {
    if (!(err instanceof PrefixNotIdError)) throw err;
  }
  try {
    return await sessions.create({ ...options, id });
  } catch (err) {
    // Made by another process since: stored IDs are looked up exactly first.
    if (err instanceof SessionExistsError) return sessions.resume(id);
    throw err;
  }
}
