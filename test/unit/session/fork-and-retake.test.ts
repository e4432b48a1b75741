import { existsSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openSessions, SessionInUseError, SessionOpenHereError, UserError } from '../../../src/index.js';
import { openFileStore } from '../../../src/store/file/file-store.js';
import { interpreter } from '../../../src/session/runtime/interpreter.js';
import { tmpHome } from '../../helpers/tmp-home.js';

async function twoExchanges(home: string, cwd: string) {
  const sessions = await openSessions({ home, cwd, lockStaleMs: 2000 });
  const s = await sessions.create({ title: 'parent' });
  for (const content of ['one', 'two', 'three', 'four']) await s.append({ role: content.length === 3 ? 'user' : 'assistant', content, usage: { inputTokens: 1, outputTokens: 2 } });
  await s.save();
  return { sessions, s };
}

describe('fork', () => {
  it('copies a live session up to message N into a new held session, recording parent and fork point', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const { sessions, s } = await twoExchanges(home, cwd);
    const fork = await sessions.fork(s, { at: 3 });
    expect(fork.id).not.toBe(s.id);
    expect(fork.messages.map((m) => m.content)).toEqual(['one', 'two', 'three']);
    expect(fork.stats).toEqual({ messageCount: 3, inputTokens: 3, outputTokens: 6 });
    expect(fork.title).toBe('parent');
    // On disk at once, held by this process.
    const snapshot = JSON.parse(readFileSync(join(fork.where.files!.dir, 'session.json'), 'utf8')) as { json: { parentId: string; forkPoint: number } };
    expect(snapshot.json).toMatchObject({ parentId: s.id, forkPoint: 3 });
    await expect((await openSessions({ home, cwd })).resume(fork.id)).rejects.toBeInstanceOf(SessionOpenHereError);
    expect(s.messages).toHaveLength(4);
    await fork.close();
    await s.close();
    const read = await sessions.read(fork.id);
    expect(read).toMatchObject({ parentId: s.id, forkPoint: 3, status: 'closed' });
    expect(read.messages.map((m) => m.content)).toEqual(['one', 'two', 'three']);
  });

  it('forks a stored session by ID (all of it by default), and refuses a fork point it does not have', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const { sessions, s } = await twoExchanges(home, cwd);
    await s.close();
    const fork = await sessions.fork(s.id, { title: 'a branch' });
    expect(fork.messages).toHaveLength(4);
    expect(fork.title).toBe('a branch');
    await fork.close();
    const bad = sessions.fork(s.id, { at: 5 });
    await expect(bad).rejects.toBeInstanceOf(UserError);
    await expect(bad).rejects.toThrow(`Cannot fork ${s.id} at message 5: it has 4 messages (give 0 to 4).`);
  });
});

describe('lock truth', () => {
  it('a live holder on this host keeps its lock, however old the lock looks', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const { s } = await twoExchanges(home, cwd);
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(join(s.where.files!.dir, 'lock'), old, old);
    // The store's lock as another process meets it (this process's manager would say it holds the session itself).
    const other = await openFileStore({ home, cwd, now: () => new Date(), staleMs: 2000, redact: (text) => text, interpreter });
    await other.locate(s.id);
    await expect(other.lock(s.id, () => undefined)).rejects.toBeInstanceOf(SessionInUseError);
    await s.close();
  });

  it('retake() takes a lost lock back when nobody wrote meanwhile, and refuses while another holds it', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const { sessions, s } = await twoExchanges(home, cwd);
    // Another process (here: another manager) takes it over after the lock was removed under us.
    rmSync(join(s.where.files!.dir, 'lock'), { recursive: true, force: true });
    rmSync(join(s.where.files!.dir, 'lock.owner.json'), { force: true });
    await vi.waitFor(() => expect(s.readOnly).toBe(true), { timeout: 10_000, interval: 100 });
    const other = await (await openSessions({ home, cwd, lockStaleMs: 2000 })).resume(s.id);
    expect(await s.retake()).toMatchObject({ retaken: false, holder: { pid: process.pid } });
    await other.close();
    expect(await s.retake()).toEqual({ retaken: true });
    expect(s.readOnly).toBe(false);
    await s.append({ role: 'user', content: 'five' });
    expect((await s.close()).saved).toBe(true);
    expect((await sessions.read(s.id)).messages.map((m) => m.content)).toEqual(['one', 'two', 'three', 'four', 'five']);
    expect(existsSync(join(s.where.files!.dir, 'lock.owner.json'))).toBe(false);
  });

  it('retake() refuses when the other holder wrote something, so the caller forks instead', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const { s } = await twoExchanges(home, cwd);
    rmSync(join(s.where.files!.dir, 'lock'), { recursive: true, force: true });
    rmSync(join(s.where.files!.dir, 'lock.owner.json'), { force: true });
    await vi.waitFor(() => expect(s.readOnly).toBe(true), { timeout: 10_000, interval: 100 });
    const other = await (await openSessions({ home, cwd, lockStaleMs: 2000 })).resume(s.id);
    await other.append({ role: 'user', content: 'written elsewhere' });
    await other.close();
    expect(await s.retake()).toEqual({ retaken: false });
    expect(s.readOnly).toBe(true);
    expect((await s.close()).saved).toBe(false);
  });
});
