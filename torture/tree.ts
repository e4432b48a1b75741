/** A directory tree's paths with their size and mtime, to prove what a run did not touch. */
import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** `relative path → "kind size mtime"` for everything under `root`, skipping paths `skip` accepts. */
export function treeOf(root: string, skip: (path: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (skip(path)) continue;
      const st = lstatSync(path);
      // A directory's own mtime changes with any entry added and removed again (temp files): its
      // entries are compared instead.
      out.set(relative(root, path), st.isDirectory() ? 'd' : `f ${st.size} ${st.mtimeMs}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(root);
  return out;
}

/** Paths added, removed or changed between two trees. */
export function treeDiff(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [path, facts] of after) if (before.get(path) !== facts) changed.push(before.has(path) ? `changed ${path}` : `added ${path}`);
  for (const path of before.keys()) if (!after.has(path)) changed.push(`removed ${path}`);
  return changed;
}
