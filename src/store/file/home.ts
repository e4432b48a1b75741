import { chmod, mkdir, realpath, stat } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { UserError } from '../../session/api/errors.js';
import { DIR_MODE } from './atomic-write.js';
import { errno } from '../../util/errno.js';
import { fileInTheWay, notAFolder } from './in-the-way.js';

/** Permission and space problems with the data directory are the user's to fix: say so in one line. */
export function storageProblem(home: string, err: unknown): unknown {
  const code = errno(err);
  if (code === 'ENOTDIR' || code === 'EEXIST') {
    const path = (err as { path?: unknown }).path;
    const file = fileInTheWay(typeof path === 'string' ? path : home) ?? home;
    return new UserError(`Cannot use the data directory \`${home}\`: ${notAFolder(file)}.`, 'E_HOME');
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOSPC') {
    return new UserError(
      `Cannot use the data directory \`${home}\`: ${(err as Error).message}. Fix its permissions or free space, or choose another with --home or CHATKEEP_HOME.`,
      'E_HOME',
    );
  }
  return err;
}


/** Creates the data home (0700) if needed, makes an existing one private, and returns its real path. */
export async function ensureHome(home: string): Promise<string> {
  const absolute = resolvePath(home);
  const created = await mkdir(absolute, { recursive: true, mode: DIR_MODE });
  // mkdir's mode is filtered by the umask: set it exactly on what we created.
  if (created !== undefined) await chmod(absolute, DIR_MODE);
  else await makePrivate(absolute);
  return realpath(absolute);
}

/**
 * An existing data directory that others may read or enter (made by hand, or by an older tool,
 * with the usual 0755) is made 0700: it holds every conversation. Resolves to the line that
 * says so when it changed it (so it is said once: the next run finds it private), else
 * undefined; a directory that is missing or not ours to change is left to the first write.
 */
export async function makePrivate(home: string): Promise<string | undefined> {
  const info = await stat(home).catch(() => undefined);
  if (!info?.isDirectory() || (info.mode & 0o077) === 0) return undefined;
  const was = (info.mode & 0o777).toString(8).padStart(4, '0');
  if (!(await chmod(home, DIR_MODE).then(() => true, () => false))) return undefined;
  return `Made the data directory ${home} private (mode 0700; it was ${was}): it holds your conversations.`;
}

