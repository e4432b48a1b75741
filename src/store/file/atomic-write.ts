import { open, rename, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync } from 'node:fs';

/** File mode of everything chatkeep writes. */
export const FILE_MODE = 0o600;
/** Directory mode of everything chatkeep creates. */
export const DIR_MODE = 0o700;

/**
 * Test seam: runs between the temp file's fsync and the rename, where a crash must leave the
 * old file intact. Not exported from the package.
 */
export const atomicWriteHooks: { beforeRename?: (tmpPath: string, target: string) => void | Promise<void> } = {};

/** Produces a file's text in order through `write`, which may wait while it writes. */
export type TextProducer = (write: (text: string) => Promise<void>) => Promise<void>;

/**
 * Replaces `target` atomically: write a temp file beside it, fsync, rename over the target,
 * fsync the directory. A crash at any point leaves either the old or the new file, whole.
 * On failure the temp file is removed and the target is untouched. `data` may be a producer
 * of text in pieces, written as they come, a batch at a time (no one step blocks for long,
 * and the whole text is never held). Resolves to the bytes written.
 */
export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array | TextProducer,
  /** Runs the rename (a writer's fence: it may refuse, and the target stays untouched). */
  around: (rename: () => Promise<void>) => Promise<void> = (replace) => replace(),
  /** `false`: the caller makes the rename durable (or needs it only as much as a cache does). */
  syncDir = true,
): Promise<number> {
  const tmp = tempPath(target);
  const handle = await open(tmp, 'wx', FILE_MODE);
  let closed = false;
  let bytes = 0;
  try {
    if (typeof data === 'function') {
      bytes = await writeProduced(handle, data);
    } else {
      await handle.writeFile(data);
      bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    }
    await handle.sync();
    closed = true;
    await handle.close();
    await atomicWriteHooks.beforeRename?.(tmp, target);
    await around(() => rename(tmp, target));
  } catch (err) {
    if (!closed) await handle.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  if (syncDir) await fsyncDir(dirname(target));
  return bytes;
}

/** How much text is encoded and written in one go. */
const BATCH_CHARS = 256 * 1024;

/**
 * Writes what `produce` makes, in order, a batch at a time; resolves to the bytes written. Each
 * piece is encoded straight into one buffer (a UTF-16 unit is at most 3 bytes of UTF-8) that
 * is written whenever the next piece might not fit: joining the pieces first cost a copy of
 * the whole text, and a buffer per batch as much again.
 */
async function writeProduced(handle: FileHandle, produce: TextProducer): Promise<number> {
  let bytes = 0;
  const buffer = Buffer.allocUnsafe(3 * BATCH_CHARS);
  let used = 0;
  const writeOut = async (from: Buffer, length: number): Promise<void> => {
    for (let offset = 0; offset < length; ) offset += (await handle.write(from, offset, length - offset)).bytesWritten;
    bytes += length;
  };
  await produce(async (text) => {
    if (used + 3 * text.length > buffer.length) {
      await writeOut(buffer, used);
      used = 0;
    }
    if (3 * text.length > buffer.length) {
      const own = Buffer.from(text, 'utf8');
      await writeOut(own, own.length);
    } else {
      used += buffer.write(text, used, 'utf8');
    }
  });
  if (used > 0) await writeOut(buffer, used);
  return bytes;
}

/**
 * Replaces `target` atomically but not durably, for caches whose reader checks them against the
 * files they describe (meta files): readers see the old file or the new one, whole; after a
 * power cut it may be the old one, or empty, which the reader ignores. Skips the two fsyncs.
 */
export async function writeCacheFile(target: string, data: string | Uint8Array): Promise<void> {
  const tmp = tempPath(target);
  await writeFile(tmp, data, { mode: FILE_MODE, flag: 'wx' });
  await rename(tmp, target).catch(async (err: unknown) => {
    await unlink(tmp).catch(() => undefined);
    throw err;
  });
}

/** Makes a directory entry change (create, rename, unlink) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** `fsyncDir` in one synchronous call (a batch's directories, after its renames). */
export function fsyncDirSync(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A fresh temp file's path beside `target`, named so that `isTempName` knows it. */
export function tempPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** True for names `writeFileAtomic` leaves behind only when the process died mid-write. */
export function isTempName(name: string): boolean {
  return name.startsWith('.') && name.includes('.tmp-');
}
