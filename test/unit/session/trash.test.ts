import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessions, SessionOpenHereError, TrashedSessionError, UserError } from '../../../src/index.js';
import { tmpHome } from '../../helpers/tmp-home.js';
import { sessionDir } from '../../helpers/session-files.js';
import { layout } from '../../../src/store/file/layout.js';

const AT = new Date('2026-11-23T10:00:00Z');

/** A manager whose clock stands still: every session it creates asks for the same ID. */
async function frozen(home: string, cwd: string) {
  return openSessions({ home, cwd, now: () => new Date(AT) });
}

describe('the trash (file store)', () => {
  it('moves a session out of listings and resolve, and restores it resumable under the same ID', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await frozen(home, cwd);
    const session = await sessions.create({ title: 'keep me' });
    await session.append({ role: 'user', content: 'hello' });
    await session.close();
    const id = session.id;

    const trashed = await sessions.trash(id.slice(0, -2));
    expect(trashed).toMatchObject({ id, project: sessions.project.path, title: 'keep me', messageCount: 1, trashedAt: AT });
    expect(await sessions.list({ all: true })).toEqual([]);
    await expect(sessions.resolve(id)).rejects.toBeInstanceOf(TrashedSessionError);
    expect(sessionDir(home, id)).toBeUndefined();
    expect(existsSync(join(home, 'trash', id, 'trash.json'))).toBe(true);
    expect((await sessions.listTrash()).map((t) => t.id)).toEqual([id]);

    expect(await sessions.restore(id)).toEqual({ id, project: sessions.project.path });
    expect(await sessions.listTrash()).toEqual([]);
    expect(readdirSync(join(home, 'trash'))).toEqual([]);
    const back = await sessions.resume(id);
    expect(back.messages.map((m) => m.content)).toEqual(['hello']);
    expect(back.title).toBe('keep me');
    await back.close();
  });

  it('refuses a session held by a live process, and leaves it where it is', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await frozen(home, cwd);
    const session = await sessions.create();
    await session.append({ role: 'user', content: 'busy' });
    // The live process is this one: it is told so, as a held session (exit 3).
    const err = await sessions.trash(session.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionOpenHereError);
    expect((err as SessionOpenHereError).exitCode).toBe(3);
    expect(sessionDir(home, session.id)).toBeDefined();
    expect(await sessions.listTrash()).toEqual([]);
    await session.append({ role: 'assistant', content: 'still writing' });
    await session.close();
    expect((await sessions.read(session.id)).messages).toHaveLength(2);
  });

  it('never issues a deleted ID again, also for a session made before IDs were registered', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await frozen(home, cwd);
    const first = await sessions.create();
    await first.append({ role: 'user', content: 'hello' });
    await first.close();
    // As a data directory written before `ids/` existed: the session has no reservation.
    rmSync(join(home, 'ids', first.id));
    await sessions.trash(first.id);
    expect(await sessions.emptyTrash()).toEqual([first.id]);
    expect(existsSync(join(home, 'trash', first.id))).toBe(false);

    const second = await sessions.create();
    expect(second.id).toBe(`${first.id}-2`);
    await second.close();
  });

  it('restore refuses when the ID is taken again, overwriting nothing', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await frozen(home, cwd);
    const session = await sessions.create();
    await session.append({ role: 'user', content: 'trashed copy' });
    await session.close();
    await sessions.trash(session.id);
    // Something else took the slot meanwhile (by hand, or a copy from another machine).
    const slot = join(layout.project(sessions.store.location, sessions.project.key), 'sessions', session.id);
    const { mkdirSync, writeFileSync, readFileSync } = await import('node:fs');
    mkdirSync(slot);
    writeFileSync(join(slot, 'session.json'), 'other');
    const err = await sessions.restore(session.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as UserError).message).toBe(
      `Cannot restore ${session.id}: a session with that ID is in ${sessions.project.path} now. Nothing was changed; the trashed one stays in the trash.`,
    );
    expect(readFileSync(join(slot, 'session.json'), 'utf8')).toBe('other');
    expect((await sessions.listTrash()).map((t) => t.id)).toEqual([session.id]);
  });

  it('empties only what was trashed before the cut-off', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    let now = new Date('2026-10-01T00:00:00Z');
    const sessions = await openSessions({ home, cwd, now: () => new Date(now) });
    const old = await sessions.create();
    await old.append({ role: 'user', content: 'hello' });
    await old.close();
    await sessions.trash(old.id);
    now = new Date('2026-11-20T00:00:00Z');
    const recent = await sessions.create();
    await recent.append({ role: 'user', content: 'hello' });
    await recent.close();
    await sessions.trash(recent.id);
    expect(await sessions.emptyTrash({ olderThan: new Date('2026-11-01T00:00:00Z') })).toEqual([old.id]);
    expect((await sessions.listTrash()).map((t) => t.id)).toEqual([recent.id]);
  });
});
