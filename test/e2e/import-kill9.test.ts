/**
 * `sessions import --from claude` killed with SIGKILL mid-way (sessions are
 * stored by the batch: docs/design.md §7): every session is either whole or absent, listings show only whole ones,
 * and a rerun completes the import and leaves no staging directory behind.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { writeClaudeSessions } from '../../bench/import.js';
import { decodeSnapshot } from '../../src/session/format/codec.js';
import { isValidId } from '../../src/session/api/ids.js';
import { runPiped, spawnPiped, type RunOptions } from '../helpers/pty.js';
import { tmpHome } from '../helpers/tmp-home.js';

const SESSIONS = 600;
const MESSAGES = 20;

/** The data home's session directories of the one project, and the other entries beside them. */
function stored(home: string): { ids: string[]; others: string[] } {
  const projects = existsSync(join(home, 'projects')) ? readdirSync(join(home, 'projects')) : [];
  if (projects.length === 0) return { ids: [], others: [] };
  const dir = join(home, 'projects', projects[0]!, 'sessions');
  const names = existsSync(dir) ? readdirSync(dir) : [];
  return { ids: names.filter(isValidId).map((id) => join(dir, id)), others: names.filter((n) => !isValidId(n)) };
}

async function messagesIn(sessionDir: string): Promise<number> {
  const file = join(sessionDir, 'session.json');
  return (await decodeSnapshot(readFileSync(file, 'utf8'), file)).messages.length;
}

describe('an import killed mid-way', () => {
  it('leaves each session whole or absent, and a rerun completes it', async () => {
    const user = tmpHome('chatkeep-user-');
    const cwd = tmpHome('chatkeep-project-');
    const store = join(user, '.claude');
    const projectDir = join(store, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(projectDir, { recursive: true });
    await writeClaudeSessions(projectDir, cwd, SESSIONS, MESSAGES);
    const options: RunOptions = { home: tmpHome(), cwd, env: { HOME: user, CLAUDE_CONFIG_DIR: store } };

    const run = spawnPiped(['sessions', 'import', '--from', 'claude'], options);
    run.child.stdin.end();
    // Killed as soon as the first batch is in place.
    while (stored(options.home).ids.length === 0 && run.child.exitCode === null) await sleep(5);
    run.child.kill('SIGKILL');
    const killed = await run.result;
    expect(killed.code, killed.stderr).not.toBe(0);

    const after = stored(options.home);
    expect(after.ids.length).toBeGreaterThan(0);
    expect(after.ids.length).toBeLessThan(SESSIONS);
    for (const dir of after.ids) expect(await messagesIn(dir), dir).toBe(MESSAGES);
    const listed = JSON.parse((await runPiped(['sessions', 'list', '--json'], '', options)).stdout) as { id: string; messageCount: number }[];
    expect(listed).toHaveLength(after.ids.length);
    expect(listed.every((row) => row.messageCount === MESSAGES)).toBe(true);

    const rerun = await runPiped(['sessions', 'import', '--from', 'claude'], '', options);
    expect(rerun.code, rerun.stderr).toBe(0);
    const done = stored(options.home);
    expect(done.ids).toHaveLength(SESSIONS);
    expect(done.others).toEqual([]);
    for (const dir of done.ids) expect(await messagesIn(dir), dir).toBe(MESSAGES);
    expect(JSON.parse((await runPiped(['sessions', 'list', '--json'], '', options)).stdout)).toHaveLength(SESSIONS);
  }, 180_000);
});
