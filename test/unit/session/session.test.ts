import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { simulateCrash } from '../../helpers/crash.js';
import { openSessions, UserError } from '../../../src/index.js';
import { readJournal } from '../../../src/store/file/journal.js';
import { modeOf } from '../../helpers/files.js';
import { layout } from '../../../src/store/file/layout.js';
import { SessionClosedError } from '../../../src/session/api/errors.js';


describe('a session', () => {
  it('keeps the order of concurrent appends (one mutex)', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const s = await sessions.create();
    const contents = Array.from({ length: 40 }, (_, i) => `m${i}`);
    const saves = [s.save(), s.save({ ifChanged: true })];
    await Promise.all([...contents.map((content) => s.append({ role: 'user', content })), ...saves]);
    expect(s.messages.map((m) => m.content)).toEqual(contents);
    const { events } = await readJournal(join(s.where.files!.dir, 'journal.jsonl'));
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    await simulateCrash(s);
    const again = await sessions.resume(s.id);
    expect(again.messages.map((m) => m.content)).toEqual(contents);
    await again.close();
  });

  it('runExclusive holds every other write off, and writes may nest inside it', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const s = await sessions.create();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let appended!: () => void;
    const userIn = new Promise<void>((r) => (appended = r));
    const turn = s.runExclusive(async () => {
      await s.append({ role: 'user', content: 'question' });
      order.push('turn: user');
      appended();
      await gate;
      const reply = s.beginReply();
      await reply.push('answer');
      await reply.finish();
      order.push('turn: reply');
    });
    await userIn;
    const autosave = s.save({ ifChanged: true }).then((r) => order.push(`save: ${r.messageCount}`));
    // Give the save every chance to run early; it must wait for the turn.
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['turn: user']);
    release();
    await Promise.all([turn, autosave]);
    expect(order).toEqual(['turn: user', 'turn: reply', 'save: 2']);
    await s.close();
  });

  it('a lock-free read never misses messages while the holder saves (snapshot and journal read as one)', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const holder = await (await openSessions({ home, cwd })).create();
    const reader = await openSessions({ home, cwd });
    let done = false;
    const writing = (async () => {
      for (let i = 0; i < 150; i++) {
        await holder.append({ role: 'user', content: `m${i}` });
        await holder.save();
      }
      done = true;
    })();
    let reads = 0;
    let seen = 0;
    while (!done) {
      const snapshot = await reader.read(holder.id);
      const contents = snapshot.messages.map((m) => m.content);
      // Every read is a prefix of what was written, never shorter than an earlier read.
      expect(contents).toEqual(Array.from({ length: contents.length }, (_, i) => `m${i}`));
      expect(contents.length).toBeGreaterThanOrEqual(seen);
      seen = contents.length;
      reads++;
    }
    await writing;
    await holder.close();
    expect(reads).toBeGreaterThan(10);
  });

  it('push() resolves with what each call put on disk: whole words only', async () => {
    const session = await (await openSessions({ home: tmpHome(), cwd: tmpHome() })).create();
    const reply = session.beginReply();
    expect(await reply.push('Hello wor')).toBe('Hello ');
    expect(await reply.push('ld, how')).toBe('world, ');
    expect(await reply.push(' are')).toBe('how ');
    expect(await reply.push(' you? ')).toBe('are you? ');
    const journal = await readJournal(join(session.where.files!.dir, 'journal.jsonl'));
    expect(journal.events.map((e) => e.payload.text).join('')).toBe('Hello world, how are you? ');
    await reply.finish();
    await session.close();
  });

  it('a snapshot taken mid-reply keeps the streamed text in the journal', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'long answer please' });
    const reply = s.beginReply();
    await reply.push('First part, ');
    await s.save(); // an autosave tick lands mid-stream: the journal is truncated…
    await reply.push('second part. ');
    await simulateCrash(s); // …and the process dies before finish()
    const again = await sessions.resume(s.id);
    expect(again.messages.map((m) => [m.role, m.content, m.interrupted ?? false])).toEqual([
      ['user', 'long answer please', false],
      ['assistant', 'First part, second part. ', true],
    ]);
    await again.close();
  });

  it('a finished reply replaces its deltas: one message, not two', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const s = await sessions.create();
    const reply = s.beginReply();
    await reply.push('all ');
    await reply.push('of it');
    const message = await reply.finish({ usage: { inputTokens: 3, outputTokens: 4 } });
    expect(message).toMatchObject({ role: 'assistant', content: 'all of it', usage: { inputTokens: 3, outputTokens: 4 } });
    await simulateCrash(s);
    const again = await sessions.resume(s.id);
    expect(again.messages.map((m) => m.content)).toEqual(['all of it']);
    expect(again.messages[0].interrupted).toBeUndefined();
    expect(again.stats).toEqual({ messageCount: 1, inputTokens: 3, outputTokens: 4 });
    await again.close();
  });

  it('reset archives the conversation inside the session and keeps the ID', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'old 1' });
    await s.append({ role: 'assistant', content: 'old 2', usage: { inputTokens: 10, outputTokens: 4 } });
    await s.reset();
    expect(s.messages).toEqual([]);
    expect(s.stats).toEqual({ messageCount: 0, inputTokens: 0, outputTokens: 0 });
    expect(s.archived).toHaveLength(1);
    expect(s.archived[0].messages.map((m) => m.content)).toEqual(['old 1', 'old 2']);
    expect(s.archived[0].stats).toEqual({ messageCount: 2, inputTokens: 10, outputTokens: 4 });
    await s.append({ role: 'user', content: 'new' });
    await simulateCrash(s); // the reset and the new turn must survive without a close
    const again = await sessions.resume(s.id);
    expect(again.id).toBe(s.id);
    expect(again.messages.map((m) => m.content)).toEqual(['new']);
    expect(again.archived[0].messages.map((m) => m.content)).toEqual(['old 1', 'old 2']);
    await again.reset();
    await again.close();
    const snap = await sessions.read(s.id);
    expect(snap.archived.map((a) => a.messages.length)).toEqual([2, 1]);
    expect(snap.messages).toEqual([]);
    expect((await sessions.list())[0]).toMatchObject({ id: s.id, messageCount: 0, status: 'closed' });
  });

  it('replays title, provider, config, system prompt, draft and superseded answers from the journal', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const s = await sessions.create({ provider: { name: 'echo', model: null } });
    await s.setTitle('Named');
    await s.setProvider({ name: 'anthropic', model: 'claude-sonnet-4-5' }, 'flag');
    await s.setConfig('autosave', { value: '5m', source: 'flag' });
    await s.setSystemPrompt({ path: '/p/system.md', sha256: 'ab'.repeat(32) }, 'command');
    await s.append({ role: 'user', content: 'q' });
    await s.append({ role: 'assistant', content: 'first answer' });
    expect(await s.supersedeAnswers()).toMatchObject({ question: { content: 'q' }, superseded: 1 });
    await s.append({ role: 'assistant', content: 'second answer' });
    await s.setDraft('half typed');
    await simulateCrash(s);
    const again = await sessions.resume(s.id);
    expect(again.title).toBe('Named');
    expect(again.provider).toEqual({ name: 'anthropic', model: 'claude-sonnet-4-5', source: 'flag' });
    expect(again.draft).toBe('half typed');
    expect(again.messages.map((m) => [m.content, m.superseded ?? false])).toEqual([['q', false], ['first answer', true], ['second answer', false]]);
    await again.setDraft(null);
    await again.close();
    const snap = await sessions.read(s.id);
    expect(snap.config).toEqual({ autosave: { value: '5m', source: 'flag' } });
    expect(snap.systemPrompt).toEqual({ path: '/p/system.md', sha256: 'ab'.repeat(32), source: 'command' });
    expect(snap.draft).toBeUndefined();
    expect(snap.messages[1]!.superseded).toBe(true);
    expect(snap.status).toBe('closed');
  });

  it('close saves, releases the lock, is idempotent, and refuses later writes', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'hi' });
    const first = await s.close();
    expect(first).toEqual({ saved: true, id: s.id, messageCount: 1, location: join(s.where.files!.dir, 'session.json') });
    expect(await s.close()).toBe(first);
    await expect(s.append({ role: 'user', content: 'late' })).rejects.toBeInstanceOf(SessionClosedError);
    await expect(s.append({ role: 'user', content: 'late' })).rejects.toThrow(new SessionClosedError(s.id));
    expect(() => statSync(join(s.where.files!.dir, 'lock'))).toThrow();
    expect(await sessions.holder(s.id)).toBeUndefined();
    const again = await sessions.resume(s.id);
    expect(again.resumeReport).toEqual({ recoveredMessages: 0, wasInterrupted: false, notices: [] });
    await again.close();
  });

  it('save with a title sets it; ifChanged skips a clean session', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    const s = await sessions.create();
    expect(await s.save({ ifChanged: true })).toMatchObject({ saved: false });
    // No message yet: the title is kept (journaled), nothing is written until a message comes.
    expect(await s.save({ title: '  Auth work ' })).toMatchObject({ saved: false, empty: true, messageCount: 0 });
    expect(s.title).toBe('Auth work');
    await s.append({ role: 'user', content: 'the first message' });
    expect(await s.save()).toMatchObject({ saved: true, messageCount: 1 });
    expect(s.title).toBe('Auth work');
    expect(s.dirty).toBe(false);
    expect((await sessions.list())[0].title).toBe('Auth work');
    await s.close();
  });

  it('keeps input history per project, 0600, newest last, multi-line intact', async () => {
    const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
    expect(await sessions.history.load()).toEqual([]);
    await sessions.history.append('first');
    await sessions.history.append('  ');
    await sessions.history.append('two\nlines');
    expect(await sessions.history.load()).toEqual(['first', 'two\nlines']);
    expect(modeOf(join(layout.project(sessions.store.location, sessions.project.key), 'history'))).toBe(0o600);
  });

  it('reads config files: missing is empty, damaged is a one-line UserError naming the file', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome() });
    expect(await sessions.readConfig()).toEqual({ user: {}, project: {} });
    writeFileSync(join(home, 'config.json'), '{"autosave": "1m"}');
    // A project's directory exists once it holds a session (opening creates nothing).
    await (await sessions.create()).close();
    writeFileSync(join(layout.project(sessions.store.location, sessions.project.key), 'config.json'), '{"provider": "openai"}');
    expect(await sessions.readConfig()).toEqual({ user: { autosave: '1m' }, project: { provider: 'openai' } });
    writeFileSync(join(home, 'config.json'), '{"autosave": ');
    const err = await sessions.readConfig().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(new RegExp(`^Config file \`${join(home, 'config.json')}\` is not valid JSON \\(.+\\)\\. Fix or remove it\\.$`));
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe('{"autosave": ');
  });
});
