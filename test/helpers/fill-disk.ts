/** Filling a filesystem to the last byte (tests and the torture's adversary trials): no test runner needed. */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Fills the filesystem of `dir` to the last byte; returns a function that frees it again. */
export function fill(dir: string): () => void {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  for (const size of [1 << 20, 1 << 12, 1]) {
    const chunk = Buffer.alloc(size, 120);
    try {
      for (;;) writeSync(fd, chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    }
  }
  closeSync(fd);
  return () => rmSync(path);
}
