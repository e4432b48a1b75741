/**
 * Writing a file the user named (`sessions export -o FILE`, `/export FORMAT FILE`): atomically
 * (a reader never sees half an export, a failed write leaves the old file), mode 0600 like
 * everything chatkeep writes (a transcript is as private as the session). An existing file of
 * that name is replaced: the user named it.
 */
import { once } from 'node:events';
import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { writeFileAtomic, type TextProducer } from '../store/file/atomic-write.js';
import { OutsideDirectoryError, printable, UserError } from '../session/api/errors.js';
import { errno } from '../util/errno.js';

/**
 * Writes `text` (or what a producer makes) to `name` (relative to `cwd`); resolves to the absolute
 * path written. A name typed in a chat (`/export md ../../x.md`) may not leave `cwd` unless
 * `anywhere` says the host allows it: a chat is often someone else's program, and its user should
 * not reach files its host never meant to expose. A shell's `-o FILE` passes `anywhere`, as the
 * shell already lets its user write there.
 */
export async function writeOutputFile(cwd: string, name: string, text: string | TextProducer, options: { anywhere?: boolean } = {}): Promise<string> {
  const path = resolve(cwd, name);
  if (options.anywhere !== true) await refuseOutside(cwd, name, path);
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

/** Refuses a path outside `cwd`, by its words (`..`, absolute) or by a symbolic link on the way. */
async function refuseOutside(cwd: string, name: string, path: string): Promise<void> {
  const inside = (root: string, target: string): boolean => {
    const rel = relative(root, target);
    return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
  };
  if (!inside(resolve(cwd), path)) throw new OutsideDirectoryError(name, resolve(cwd));
  // The directory as it really is: a link inside `cwd` may lead out of it.
  const [root, dir] = await Promise.all([realpath(cwd).catch(() => resolve(cwd)), realpath(dirname(path)).catch(() => undefined)]);
  if (dir !== undefined && !inside(root, dir)) throw new OutsideDirectoryError(name, resolve(cwd));
}

/** How much text is written to a stream in one go. */
const BATCH_CHARS = 256 * 1024;

/**
 * Writes what `produce` makes to `stream` (standard output) a batch at a time, waiting while
 * the reader is behind: the whole text is never held, however large.
 */
export async function writeToStream(stream: NodeJS.WritableStream, produce: TextProducer): Promise<void> {
  let batch: string[] = [];
  let size = 0;
  const flush = async (): Promise<void> => {
    const text = batch.join('');
    batch = [];
    size = 0;
    if (stream.write(text) === false) await once(stream, 'drain');
  };
  await produce(async (text) => {
    batch.push(text);
    size += text.length;
    if (size >= BATCH_CHARS) await flush();
  });
  if (size > 0) await flush();
}
