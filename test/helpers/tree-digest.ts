import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Every file and directory under `root` with the SHA-256 of each file's bytes and its mode, to
 * show that a command changed nothing (undefined when `root` does not exist).
 */
export function treeDigest(root: string): Record<string, string> | undefined {
  if (!existsSync(root)) return undefined;
  const digest: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const name = relative(root, path);
      if (entry.isDirectory()) {
        digest[`${name}/`] = `dir ${statSync(path).mode.toString(8)}`;
        walk(path);
      } else {
        digest[name] = `${createHash('sha256').update(readFileSync(path)).digest('hex')} ${statSync(path).mode.toString(8)}`;
      }
    }
  };
  walk(root);
  return digest;
}
