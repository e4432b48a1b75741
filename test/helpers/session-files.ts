/**
 * Finding a session's files under a data home, for e2e assertions on disk.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

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
