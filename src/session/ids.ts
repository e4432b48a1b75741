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
 * A Date whose local-time getters answer in UTC, so date-fns (which formats local fields)
 * formats the UTC clock. Shifting by the offset instead fails in a DST gap, where the shifted
 * local wall time does not exist.
 */
class UtcView extends Date {
  override getFullYear(): number { return this.getUTCFullYear(); }
  override getMonth(): number { return this.getUTCMonth(); }
  override getDate(): number { return this.getUTCDate(); }
  override getDay(): number { return this.getUTCDay(); }
  override getHours(): number { return this.getUTCHours(); }
  override getMinutes(): number { return this.getUTCMinutes(); }
  override getSeconds(): number { return this.getUTCSeconds(); }
  override getMilliseconds(): number { return this.getUTCMilliseconds(); }
  override getTimezoneOffset(): number { return 0; }
}

/** `session-YYYYMMDD-HHmmss` of the UTC clock (DESIGN §3). */
export async function baseIdFor(date: Date): Promise<string> {
  const { lightFormat } = await import('date-fns/lightFormat');
  return lightFormat(new UtcView(date.getTime()), "'session-'yyyyMMdd-HHmmss");
}

/** The `code` of a Node system error, if any. */
export function errno(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}
