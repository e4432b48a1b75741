import { chmod, mkdir, realpath } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { UserError } from '../../session/errors.js';
import { DIR_MODE } from './atomic-write.js';
import { errno } from '../../session/ids.js';

/** Permission and space problems with the data directory are the user's to fix: say so in one line. */
export function storageProblem(home: string, err: unknown): unknown {
  const code = errno(err);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || code === 'ENOSPC' || code === 'ENOTDIR' || code === 'EEXIST') {
    const reason = code === 'EEXIST' || code === 'ENOTDIR' ? 'it, or a directory above it, is not a directory' : (err as Error).message;
    return new UserError(
      `Cannot use the data directory \`${home}\`: ${reason}. Fix its permissions or free space, or choose another with --home or CHATKEEP_HOME.`,
      'E_HOME',
    );
  }
  return err;
}

/** Creates the data home (0700) if needed and returns its real path. */
export async function ensureHome(home: string): Promise<string> {
  const absolute = resolvePath(home);
  const created = await mkdir(absolute, { recursive: true, mode: DIR_MODE });
  // mkdir's mode is filtered by the umask: set it exactly on what we created.
  if (created !== undefined) await chmod(absolute, DIR_MODE);
  return realpath(absolute);
}

