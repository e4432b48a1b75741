/**
 * Reading what `chatkeep sessions import FILE|-` imports, never more than the limit (512 MiB,
 * or CHATKEEP_IMPORT_LIMIT_MB): a file's size is checked before it is read, and what is read is
 * cut off past it.
 */
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { importRefusal, tooLarge } from '../../export/import-check.js';
import { printable } from '../../session/api/errors.js';
import { errno } from '../../util/errno.js';

/** The text of `file` (`-`: `stdin`), never more than `limit` bytes, and how messages name it. */
export async function readImportInput(file: string, cwd: string, stdin: NodeJS.ReadableStream, limit: number): Promise<{ text: string; source: string }> {
  if (file === '-') {
    const source = 'standard input';
    return { text: await readLimited(stdin, source, limit), source };
  }
  const source = `\`${printable(file)}\``;
  const path = resolve(cwd, file);
  const info = await stat(path).catch((err: unknown) => {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') throw importRefusal(source, 'there is no such file', false);
    throw err;
  });
  if (!info.isFile()) throw importRefusal(source, 'it is not a file', false);
  if (info.size > limit) throw tooLarge(source, limit);
  const handle = await open(path, 'r');
  try {
    // It may have grown since the stat: read as a stream, cut off past the limit.
    return { text: await readLimited(handle.createReadStream({ highWaterMark: 1 << 20 }), source, limit), source };
  } finally {
    await handle.close();
  }
}

/**
 * Reads a stream as UTF-8 text a chunk at a time (each chunk decoded and let go: the bytes and
 * the text are never both held whole), refusing it once it passes `limit` bytes.
 */
async function readLimited(stream: NodeJS.ReadableStream, source: string, limit: number): Promise<string> {
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > limit) throw tooLarge(source, limit);
    parts.push(decoder.write(bytes));
  }
  parts.push(decoder.end());
  let text: string;
  try {
    text = parts.join('');
  } catch (err) {
    // Past the longest string JavaScript can make (about 512 MiB): said as what it is.
    if (err instanceof RangeError) throw importRefusal(source, 'it is too large to read as one text (chatkeep reads at most about 512 MiB)', false);
    throw err;
  }
  // UTF-8, without the byte-order mark some editors put first.
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
