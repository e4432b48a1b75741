/**
 * The project of many sessions that the listing, search and browser rows measure, with a rare
 * word planted in one session of 100. Written under the scratch root for each case, or once
 * under `--keep DIR` and reused by every row and every later run of that size.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openSessions } from '../src/index.js';
import type { SessionManager } from '../src/session/runtime/manager-api.js';
import type { BenchConfig } from './config.js';
import { manySessions, openProject } from './fixtures.js';

/** Planted in one session of 100 (the generated prose draws on ~45 words, each in nearly every message). */
export const RARE = 'zanzibar';

export interface PlantedProject {
  manager: SessionManager;
  /** The case's own directory: the home and project, and room for its floors' files. */
  dir: string;
  /** Found under `--keep` as an earlier run left it (its indexes built, its sessions touched by that run's writes). */
  reused: boolean;
}

let counter = 0;

/** n sessions in one project (n - 1 written, and the template session). */
export async function plantedProject(config: BenchConfig, n: number): Promise<PlantedProject> {
  const dir = config.keep !== undefined ? join(config.keep, `sessions-${n}`) : join(config.root, `sessions-${n}-${++counter}`);
  const home = join(dir, 'home');
  const cwd = join(dir, 'project');
  // Written last: a run stopped while writing leaves no marker, and the next one starts over.
  const marker = join(dir, 'written');
  if (existsSync(marker)) return { manager: await openSessions({ home, cwd }), dir, reused: true };
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const { manager, template } = await openProject(home, cwd);
  await manySessions(manager, template, n - 1, (i, messages) => {
    const m = messages[i % messages.length]!;
    if (i % 100 === 0) m.content = `${m.content} and then Zanzibar came up`;
  });
  await writeFile(marker, `${new Date().toISOString()}\n`);
  return { manager, dir, reused: false };
}
