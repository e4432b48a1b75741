import { InvalidIdError, UnknownSessionError } from './errors.js';

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** True when `id` may be used as a session ID (and so as a path component). */
export function isValidId(id: string): boolean {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

/** Throws `InvalidIdError` unless `id` is valid: call before any path is built from outside input. */
export function assertValidId(id: string): string {
  if (!isValidId(id)) throw new InvalidIdError(String(id));
  return id;
}

/**
 * What the manager answers for `idOrPrefix` where nothing was ever stored (no data directory):
 * for a caller that must refuse without opening a store, which would create one.
 */
export function noSuchSession(idOrPrefix: string): InvalidIdError | UnknownSessionError {
  return isValidId(idOrPrefix) ? new UnknownSessionError(idOrPrefix) : new InvalidIdError(idOrPrefix);
}

/**
 * `session-YYYYMMDD-HHmmss` of the UTC clock (docs/design.md §3). Read from the UTC getters (no time
 * zone, so no DST gap): a library user need not install date-fns (28 MB) for one fixed format.
 */
export function baseIdFor(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  const day = `${String(date.getUTCFullYear()).padStart(4, '0')}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}`;
  return `session-${day}-${two(date.getUTCHours())}${two(date.getUTCMinutes())}${two(date.getUTCSeconds())}`;
}
