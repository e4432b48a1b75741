/**
 * Writing a file the user named (`sessions export -o FILE`, `/export FORMAT FILE`): atomically
 * (a reader never sees half an export, a failed write leaves the old file), mode 0600 like
 * everything chatkeep writes (a transcript is as private as the session). An existing file of
 * that name is replaced: the user named it.
 */
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from '../store/file/atomic-write.js';
import { printable, UserError } from '../session/errors.js';
import { errno } from '../session/ids.js';

/** Writes `text` to `name` (relative to `cwd`); resolves to the absolute path written. */
export async function writeOutputFile(cwd: string, name: string, text: string): Promise<string> {
  const path = resolve(cwd, name);
  const existing = await stat(path).catch((err: unknown) => {
    if (errno(err) === 'ENOENT') return undefined;
    throw err;
  });
  if (existing?.isDirectory()) throw new UserError(`Cannot write \`${printable(name)}\`: it is a directory. Name a file in it.`, 'E_OUTPUT');
  try {
    await writeFileAtomic(path, text);
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') {
      throw new UserError(`Cannot write \`${printable(name)}\`: the directory \`${printable(dirname(path))}\` does not exist.`, 'E_OUTPUT');
    }
    throw err;
  }
  return path;
}
