/**
 * Whether a UI message a client sent is the one stored, without copying either: what
 * `isDeepStrictEqual(stored, withoutUndefined(given))` answers, walked by hand. `saveChat` asks
 * it of every message of the chat on every save, and the generic comparison of a whole
 * 1,000-message chat cost several times the one message the save stores.
 */
import { isDeepStrictEqual } from 'node:util';
import { isPlainObject } from '../../util/is-object.js';

/** True when `given` (keys whose value is `undefined` read as absent, as JSON keeps it) deep-equals `stored`. */
export function sameMessage(stored: unknown, given: unknown): boolean {
  if (Object.is(stored, given)) return true;
  if (Array.isArray(given)) {
    if (!Array.isArray(stored) || stored.length !== given.length) return false;
    for (let i = 0; i < given.length; i++) if (!sameMessage(stored[i], given[i])) return false;
    return true;
  }
  if (isPlainObject(given)) {
    // withoutUndefined copies a plain object into `{}`: the stored one must be such an object too.
    if (!isPlainObject(stored) || Object.getPrototypeOf(stored) !== Object.prototype) return false;
    let keys = 0;
    for (const key of Object.keys(given)) {
      const value = given[key];
      if (value === undefined) continue;
      keys += 1;
      if (!Object.hasOwn(stored, key) || !sameMessage(stored[key], value)) return false;
    }
    return keys === Object.keys(stored).length;
  }
  // Anything else (a primitive, bytes, a Date): the generic comparison, as before.
  return isDeepStrictEqual(stored, given);
}
