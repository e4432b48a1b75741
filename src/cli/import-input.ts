/**
 * Reading what `chatkeep sessions import FILE|-` imports, never more than the documented
 * limit: a file's size is checked before it is read, standard input is cut off past it.
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { importRefusal, MAX_IMPORT_BYTES, tooLarge } from '../export/import-check.js';
import { printable } from '../session/errors.js';
import { errno } from '../session/ids.js';

/** The text of `file` (`-`: `stdin`), and how messages name it. */
export async function readImportInput(file: string, cwd: string, stdin: NodeJS.ReadableStream): Promise<{ text: string; source: string }> {
  if (file === '-') {
    const source = 'standard input';
    return { text: decode(await readLimited(stdin, source)), source };
  }
  const source = `\`${printable(file)}\``;
  const path = resolve(cwd, file);
  const info = await stat(path).catch((err: unknown) => {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') throw importRefusal(source, 'there is no such file', false);
    throw err;
  });
  if (!info.isFile()) throw importRefusal(source, 'it is not a file', false);
  if (info.size > MAX_IMPORT_BYTES) throw tooLarge(source);
  const bytes = await readFile(path);
  // It may have grown since the stat.
  if (bytes.length > MAX_IMPORT_BYTES) throw tooLarge(source);
  return { text: decode(bytes), source };
}

async function readLimited(stream: NodeJS.ReadableStream, source: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > MAX_IMPORT_BYTES) throw tooLarge(source);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** UTF-8, without the byte-order mark some editors put first. */
function decode(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}
