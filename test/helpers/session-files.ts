/**
 * Finding a session's files under a data home, for e2e assertions on disk.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readIndex, type IndexFile } from '../../src/store/file/index-file.js';

/** `<home>/projects/<slug>/sessions/<id>`, whichever project holds it; undefined when none does. */
export function sessionDir(home: string, id: string): string | undefined {
  const projects = join(home, 'projects');
  if (!existsSync(projects)) return undefined;
  for (const slug of readdirSync(projects)) {
    const dir = join(projects, slug, 'sessions', id);
    if (existsSync(dir)) return dir;
  }
  return undefined;
}

/** The session ID from the banner (`· session <id> ·`). */
export function bannerId(screen: string): string {
  const match = /· session (\S+) ·/.exec(screen);
  if (!match?.[1]) throw new Error(`no banner on screen:\n${screen}`);
  return match[1];
}

/** Every file under `dir` (paths relative to it) with the SHA-256 of its bytes: to assert "untouched byte for byte". */
export function fileHashes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string, prefix: string): void => {
    for (const name of readdirSync(at).sort()) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else out[`${prefix}${name}`] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir, '');
  return out;
}

/**
 * Dates every project's `sessions/` directory `ms` back: the listing's index records a
 * directory's mtime only once it is 2 s old (src/store/file/index-store.ts), so a test that needs
 * the index settled ages the directory instead of waiting.
 */
export function ageSessionDirs(home: string, ms = 3_000): void {
  const projects = join(home, 'projects');
  if (!existsSync(projects)) return;
  const then = new Date(Date.now() - ms);
  for (const slug of readdirSync(projects)) {
    const dir = join(projects, slug, 'sessions');
    if (existsSync(dir)) utimesSync(dir, then, then);
  }
}

/**
 * A project's `index.json` as a reader sees it: its body with the tail of later writes folded in
 * (src/store/file/index-file.ts); the file itself is one JSON document only while it has no tail.
 */
export async function indexOnDisk(indexPath: string): Promise<IndexFile> {
  const read = await readIndex(dirname(indexPath));
  if (read.kind !== 'ok') throw new Error(`index.json is ${read.kind}`);
  return read.index;
}
