/**
 * A write that fails mid-reply, on each store: what is stored afterwards is the conversation
 * as it was shown, in order, through a retake, a close and the next resume. The full disk is a
 * real one (a small tmpfs mounted for the test: root, as on CI); the lost server connection is
 * the lock's backend ended by pg_terminate_backend from another connection. A write whose
 * outcome is unknown (the connection given up while the server still held the INSERT back) is
 * settled by the event's own ID before the caller hears anything.
 */
import { describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { openSessions, type Message, type ReplyWriter, type Session } from '../../src/index.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { fill } from '../helpers/fill-disk.js';
import { smallDisk } from '../helpers/small-disk.js';
import { createDatabase, holdSessionRow, runSql } from '../helpers/postgres.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { managerOn } from './contract-kit.js';

const contents = (messages: readonly Message[]): string[] => messages.map((m) => `${m.role}${m.interrupted ? ' (interrupted)' : ''}: ${m.content}`);

/** Two exchanges saved, a third question and the start of its reply streamed: what is on screen so far. */
async function midReply(s: Session): Promise<{ writer: ReplyWriter; shown: string[] }> {
  await s.append({ role: 'user', content: 'q1' }, { role: 'assistant', content: 'a1' });
  await s.save();
  await s.append({ role: 'user', content: 'q2' });
  const writer = s.beginReply();
  // Each piece is shown once journaled (push resolves to the text stored so far): a kill keeps all of it.
  let stored = '';
  for (const piece of ['The answer ', 'begins here, ', 'and goes on ']) stored += await writer.push(piece);
  return { writer, shown: ['user: q1', 'assistant: a1', 'user: q2', `assistant (interrupted): ${stored}`] };
}

describe('a write failing mid-reply', () => {
  it('file store, a full disk: the reply stays where it was shown, interrupted, once and in order', async () => {
    const home = smallDisk(4);
    const sessions = await openSessions({ home, cwd: tmpHome() });
    const s = await sessions.create();
    const { writer, shown } = await midReply(s);
    const free = fill(home);
    // A piece larger than a page needs space the disk no longer has.
    await expect(writer.push('word '.repeat(3000))).rejects.toMatchObject({ code: 'ENOSPC' });
    await expect(writer.finish({ interrupted: true })).rejects.toMatchObject({ code: 'ENOSPC' });
    // The live conversation is what was shown: the next question goes to the model with it.
    expect(contents(s.messages)).toEqual(shown);
    free();
    await s.append({ role: 'user', content: 'q3' });
    await s.close();
    const stored = [...shown, 'user: q3'];
    expect(contents((await sessions.read(s.id)).messages)).toEqual(stored);
    const again = await (await openSessions({ home, cwd: tmpHome() })).resume(s.id);
    expect(contents(again.messages)).toEqual(stored);
    await again.close();
    expect(contents((await sessions.read(s.id)).messages)).toEqual(stored);
  });

  it('PostgreSQL, the lock connection terminated: taken back, the reply is stored once, where it was shown', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome(), store: url });
    const s = await sessions.create();
    const { writer, shown } = await midReply(s);
    await runSql(url, 'SELECT pg_terminate_backend(backend_pid) FROM chatkeep.holders WHERE session_id = $1', [s.id]);
    await vi.waitFor(() => expect(s.readOnly).toBe(true), { timeout: 10_000, interval: 50 });
    await expect(writer.push('more ')).rejects.toMatchObject({ code: 'E_READ_ONLY' });
    await expect(writer.finish({ interrupted: true })).rejects.toMatchObject({ code: 'E_READ_ONLY' });
    expect(contents(s.messages)).toEqual(shown);
    expect(await s.retake()).toEqual({ retaken: true });
    expect(contents(s.messages)).toEqual(shown);
    await s.append({ role: 'user', content: 'q3' });
    await s.close();
    const stored = [...shown, 'user: q3'];
    expect(contents((await sessions.read(s.id)).messages)).toEqual(stored);
    const again = await (await openSessions({ home, cwd: tmpHome(), store: url })).resume(s.id);
    expect(contents(again.messages)).toEqual(stored);
    await again.close();
    expect(contents((await sessions.read(s.id)).messages)).toEqual(stored);
  });
});

describe('a write of unknown outcome', () => {
  it('PostgreSQL, a read timeout while a row lock held the INSERT back: settled as stored, once, and the session taken back', async () => {
    const url = await createDatabase(inject('postgresAdminUrl'));
    const store = await openPostgresStore(url, { interpreter, cwd: tmpHome(), timeouts: { queryTimeoutMs: 1_500 } });
    onTestFinished(() => store.close());
    const sessions = managerOn(store, () => new Date());
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'q1' }, { role: 'assistant', content: 'a1' });
    // Someone holds the session's row: the next INSERT waits in the server past chatkeep's read timeout.
    const release = await holdSessionRow(url, s.id);
    const sent = s.append({ role: 'user', content: 'q2' });
    const said = sent.then(
      () => 'stored',
      (err: unknown) => `refused: ${String(err)}`,
    );
    // chatkeep gave the connection up; the server still holds the INSERT, which commits once the row is free.
    await vi.waitFor(() => expect(s.readOnly).toBe(true), { timeout: 20_000, interval: 50 });
    await release();
    expect(await said).toBe('stored');
    expect(contents(s.messages)).toEqual(['user: q1', 'assistant: a1', 'user: q2']);
    // Everything stored is this process's own: taken back, no fork.
    expect(await s.retake()).toEqual({ retaken: true });
    await s.append({ role: 'assistant', content: 'a2' });
    await s.close();
    const stored = await runSql<{ n: number }>(url, "SELECT count(*)::int AS n FROM chatkeep.events WHERE session_id = $1 AND payload->'message'->>'content' = 'q2'", [s.id]);
    expect(stored[0]?.n ?? 0).toBeLessThanOrEqual(1);
    expect(contents((await sessions.read(s.id)).messages)).toEqual(['user: q1', 'assistant: a1', 'user: q2', 'assistant: a2']);
  });
});
