import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { simulateCrash } from '../../helpers/crash.js';
import { openSessions, ReadOnlySessionError, SessionInUseError } from '../../../src/index.js';
import { buildLibrary, removeBuilds, runChild, startChild } from '../../helpers/child.js';
import { layout } from '../../../src/store/file/layout.js';

beforeAll(() => {
  buildLibrary();
}, 120_000);
afterAll(removeBuilds);

/** A child that opens `home`/`cwd`, runs `body` with `sessions` in scope, then waits to be killed. */
function holderScript(home: string, cwd: string, body: string): string {
  return `
const { openSessions } = await import(LIB);
const sessions = await openSessions({ home: ${JSON.stringify(home)}, cwd: ${JSON.stringify(cwd)} });
${body}
setInterval(() => {}, 1000);
`;
}

/** A child that tries to resume `id` and reports the outcome as one JSON line (a winner closes after `holdMs`). */
function resumeScript(home: string, cwd: string, id: string, holdMs = 300): string {
  return `
const { openSessions } = await import(LIB);
const sessions = await openSessions({ home: ${JSON.stringify(home)}, cwd: ${JSON.stringify(cwd)} });
try {
  const s = await sessions.resume(${JSON.stringify(id)});
  console.log('RESULT ' + JSON.stringify({ ok: true, pid: process.pid, messages: s.messages, report: s.resumeReport }));
  setTimeout(async () => { await s.close(); process.exit(0); }, ${holdMs});
} catch (err) {
  console.log('RESULT ' + JSON.stringify({ ok: false, pid: process.pid, name: err.name, exitCode: err.exitCode, owner: err.owner ?? null, message: err.message, advice: err.advice }));
}
`;
}

function result(line: string): Record<string, unknown> {
  return JSON.parse(line.slice('RESULT '.length)) as Record<string, unknown>;
}

describe('across processes', () => {
  it('a second process cannot take a held lock and learns the holder', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const sessions = await openSessions({ home, cwd });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'kept once it holds a message' });
    const { lines, code } = await runChild(resumeScript(home, cwd, s.id));
    expect(code).toBe(0);
    const r = result(lines.find((l) => l.startsWith('RESULT ')) ?? '');
    expect(r.ok).toBe(false);
    expect(r.name).toBe('SessionInUseError');
    expect(r.exitCode).toBe(3);
    expect((r.owner as { pid: number }).pid).toBe(process.pid);
    expect(r.message).toMatch(new RegExp(`^Session ${s.id} is in use by process ${process.pid} on \\S+ \\(since .+\\): quit it there first\\.$`));
    expect(r.advice).toEqual({ to: 'Or continue in a copy of it:', run: ['--fork', s.id], call: `sessions.fork('${s.id}')` });
    expect(await sessions.holder(s.id)).toMatchObject({ pid: process.pid });
    await s.close();
    expect(await sessions.holder(s.id)).toBeUndefined();
  });

  it('a second process resumes what the first wrote, through the public API', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const first = await runChild(`
const { openSessions } = await import(LIB);
const sessions = await openSessions({ home: ${JSON.stringify(home)}, cwd: ${JSON.stringify(cwd)} });
const s = await sessions.create({ title: 'written by the first' });
await s.append({ role: 'user', content: 'hello from process one' });
const reply = s.beginReply();
await reply.push('hi ');
await reply.push('there');
await reply.finish({ usage: { inputTokens: 5, outputTokens: 2 } });
const saved = await s.close();
console.log('ID ' + s.id + ' ' + saved.messageCount);
`);
    expect(first.stderr).toBe('');
    const [, id, count] = (first.lines.find((l) => l.startsWith('ID ')) ?? '').split(' ');
    expect(count).toBe('2');
    const second = await runChild(resumeScript(home, cwd, id));
    const r = result(second.lines.find((l) => l.startsWith('RESULT ')) ?? '');
    expect(r.ok).toBe(true);
    expect((r.messages as { role: string; content: string }[]).map((m) => [m.role, m.content])).toEqual([
      ['user', 'hello from process one'],
      ['assistant', 'hi there'],
    ]);
    expect(r.report).toEqual({ recoveredMessages: 0, wasInterrupted: false, notices: [] });
    const sessions = await openSessions({ home, cwd });
    const [row] = await sessions.list();
    expect(row).toMatchObject({ id, title: 'written by the first', messageCount: 2, status: 'closed' });
  });

  it('takes over at once from a holder that was SIGKILLed, recovering its journal', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const holder = startChild(
      holderScript(home, cwd, `
const s = await sessions.create();
await s.append({ role: 'user', content: 'typed before the crash' });
await s.append({ role: 'assistant', content: 'shown before the crash' });
console.log('READY ' + s.id);
`),
    );
    const id = (await holder.waitFor('READY ')).split(' ')[1];
    const sessions = await openSessions({ home, cwd });
    await expect(sessions.resume(id)).rejects.toBeInstanceOf(SessionInUseError);
    expect((await sessions.list())[0]).toMatchObject({ id, status: 'open', messageCount: 2 });

    holder.proc.kill('SIGKILL');
    await holder.exited;
    // The lock directory is still there, younger than the 20 s stale time.
    expect(statSync(join(layout.project(sessions.store.location, sessions.project.key), 'sessions', id, 'lock')).isDirectory()).toBe(true);
    expect((await sessions.list())[0]).toMatchObject({ id, status: 'interrupted', messageCount: 2 });

    const s = await sessions.resume(id); // no waiting: retries are 0, so this would throw if not taken over
    expect(s.messages.map((m) => m.content)).toEqual(['typed before the crash', 'shown before the crash']);
    expect(s.resumeReport).toMatchObject({ recoveredMessages: 2, wasInterrupted: true, notices: [] });
    expect(await sessions.holder(id)).toMatchObject({ pid: process.pid });
    expect((await sessions.list())[0]).toMatchObject({ id, status: 'open' });
    await s.close();
    expect((await sessions.list())[0]).toMatchObject({ id, status: 'closed', messageCount: 2 });
  });

  it('two processes racing for a dead holder\'s session: exactly one wins', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const holder = startChild(holderScript(home, cwd, `const s = await sessions.create(); console.log('READY ' + s.id);`));
    const id = (await holder.waitFor('READY ')).split(' ')[1];
    holder.proc.kill('SIGKILL');
    await holder.exited;
    // A winner holds on until every racer has answered (a slow starter must meet it, not its close).
    const racers = [1, 2, 3].map(() => startChild(resumeScript(home, cwd, id, 600_000)));
    const outcomes = await Promise.all(racers.map(async (c) => result(await c.waitFor('RESULT '))));
    for (const c of racers) c.proc.kill('SIGTERM');
    await Promise.all(racers.map((c) => c.exited));
    const winners = outcomes.filter((o) => o.ok);
    const losers = outcomes.filter((o) => !o.ok);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(2);
    for (const l of losers) {
      expect(l.name, String(l.message)).toBe("SessionInUseError");
      expect((l.owner as { pid: number } | null)?.pid).toBe(winners[0].pid);
    }
  });

  it('takes over at once from a process that died while taking the lock', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const sessions = await openSessions({ home, cwd });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'kept' });
    await simulateCrash(s);
    // What a death between the lock's mkdir and its owner file leaves: the takeover guard with a
    // dead holder, and a fresh lock directory without an owner file.
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid as number;
    mkdirSync(join(s.where.files!.dir, 'lock'));
    mkdirSync(join(s.where.files!.dir, 'lock.takeover'));
    writeFileSync(join(s.where.files!.dir, 'lock.takeover', 'holder'), `${deadPid} ${hostname()}\n`);
    const resumed = await sessions.resume(s.id);
    expect(resumed.messages.map((m) => m.content)).toEqual(['kept']);
    expect(await sessions.holder(s.id)).toMatchObject({ pid: process.pid });
    expect(existsSync(join(s.where.files!.dir, 'lock.takeover'))).toBe(false);
    await resumed.close();

    // A guard with no readable holder is broken once it is old enough to be a crash's leftover.
    mkdirSync(join(s.where.files!.dir, 'lock.takeover'));
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(s.where.files!.dir, 'lock.takeover'), old, old);
    const again = await sessions.resume(s.id);
    await again.close();
  });

  it('kill -9 in the middle of a reply keeps the streamed text as an interrupted message', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const holder = startChild(
      holderScript(home, cwd, `
const s = await sessions.create();
await s.append({ role: 'user', content: 'tell me a story' });
const reply = s.beginReply();
await reply.push('Once upon ');
await reply.push('a time, ');
await reply.push('there was');
console.log('READY ' + s.id);
`),
    );
    const id = (await holder.waitFor('READY ')).split(' ')[1];
    holder.proc.kill('SIGKILL');
    await holder.exited;

    const sessions = await openSessions({ home, cwd });
    const s = await sessions.resume(id);
    expect(s.messages).toHaveLength(2);
    expect(s.messages[1]).toMatchObject({ role: 'assistant', content: 'Once upon a time, there ', interrupted: true });
    expect(s.resumeReport).toMatchObject({ recoveredMessages: 2, wasInterrupted: true });
    // It was snapshotted at once: new turns come after it, also after another crash.
    await s.append({ role: 'user', content: 'go on' });
    const snap = await sessions.read(id);
    expect(snap.messages.map((m) => m.content)).toEqual(['tell me a story', 'Once upon a time, there ', 'go on']);
    await s.close();
  });

  it('autosave never keeps the process alive', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const { code, lines, stderr } = await runChild(`
const { openSessions, parseAutosaveSpec, startAutosave } = await import(LIB);
const sessions = await openSessions({ home: ${JSON.stringify(home)}, cwd: ${JSON.stringify(cwd)} });
const s = await sessions.create();
const autosave = startAutosave(s, parseAutosaveSpec('1s'));
await s.append({ role: 'user', content: 'left open' });
await new Promise((r) => setTimeout(r, 1500)); // the job is running and has ticked
console.log('NEXT ' + (autosave.nextDate() instanceof Date));
`);
    expect(stderr).toBe('');
    expect(lines).toContain('NEXT true');
    expect(code).toBe(0); // it ended on its own, with the job still scheduled
    const sessions = await openSessions({ home, cwd });
    const [row] = await sessions.list();
    expect(row).toMatchObject({ status: 'interrupted', messageCount: 1 });
  });

  it('a lost lock makes the session read-only, warns, and writes nothing', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const sessions = await openSessions({ home, cwd, lockStaleMs: 2000 });
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'before' });
    await s.save();
    const warnings: string[] = [];
    s.onWarning((w) => warnings.push(w));
    rmSync(join(s.where.files!.dir, 'lock'), { recursive: true, force: true });
    await vi.waitFor(() => expect(s.readOnly).toBe(true), { timeout: 10_000, interval: 100 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^Lost the lock on session ${s.id} \\(.+\\): nothing more is written to it until it is held again\\.$`));
    const journal = readFileSync(join(s.where.files!.dir, 'journal.jsonl'));
    const snapshot = readFileSync(join(s.where.files!.dir, 'session.json'));
    await expect(s.append({ role: 'user', content: 'after' })).rejects.toBeInstanceOf(ReadOnlySessionError);
    await expect(s.save()).rejects.toBeInstanceOf(ReadOnlySessionError);
    await expect(s.reset()).rejects.toBeInstanceOf(ReadOnlySessionError);
    expect(await s.close()).toMatchObject({ saved: false });
    expect(readFileSync(join(s.where.files!.dir, 'journal.jsonl')).equals(journal)).toBe(true);
    expect(readFileSync(join(s.where.files!.dir, 'session.json')).equals(snapshot)).toBe(true);
  });
});
