import { mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidIdError } from './errors.js';

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

/** The session IDs in a `sessions/` directory (other entries ignored; a missing directory holds none). */
export async function sessionIdsIn(sessionsDir: string): Promise<string[]> {
  return (await readdir(sessionsDir).catch(() => [] as string[])).filter(isValidId);
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

/**
 * Reserves a never-issued ID and creates its session directory (0700).
 * The reservation is an exclusive file in `<home>/ids/`, kept forever (also when the session
 * goes to trash), so an ID is unique across projects and never reissued; the session
 * directory itself is then created with an exclusive `mkdir`.
 */
export async function reserveId(
  idsDir: string,
  sessionsDir: string,
  now: Date,
): Promise<{ id: string; dir: string }> {
  const base = await baseIdFor(now);
  await mkdir(idsDir, { recursive: true, mode: 0o700 });
  await mkdir(sessionsDir, { recursive: true, mode: 0o700 });
  for (let n = 1; n < 10_000; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (!(await createExclusive(join(idsDir, id)))) continue;
    const dir = join(sessionsDir, id);
    try {
      await mkdir(dir, { mode: 0o700 });
      return { id, dir };
    } catch (err) {
      if (errno(err) !== 'EEXIST') throw err;
      // The registry lost this ID (deleted by hand): the directory still owns it.
    }
  }
  throw new Error(`Could not find a free session ID after ${base}`);
}

/** Creates an empty file at `path` unless one exists: false when it did (another process took the name). */
export async function createExclusive(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o600);
    await handle.close();
    return true;
  } catch (err) {
    if (errno(err) === 'EEXIST') return false;
    throw err;
  }
}

/** The `code` of a Node system error, if any. */
export function errno(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}
