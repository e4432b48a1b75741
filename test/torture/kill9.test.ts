import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSessions } from '../../src/index.js';
import { atomicWriteHooks } from '../../src/store/file/atomic-write.js';
import { run } from '../../torture/kill9.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';
import { layout } from '../../src/store/file/layout.js';

/** A pid that is not running: the largest allowed is far above any live one on a test machine. */
const DEAD_PID = 4_194_000;

describe('torture: kill -9 at random moments', () => {
  it('loses no message that was on screen, and every session loads at once', async () => {
    const result = await run({ trials: 12, chain: 6, workers: 2, root: tmpHome('chatkeep-torture-'), seed: 7 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures.trials).toBe(12);
    expect(result.figures.messagesAcknowledged).toBeGreaterThan(0);
    // Far below the 20 s stale time: a dead holder's lock is taken over at once.
    expect(result.figures.slowestRestartMs).toBeLessThan(10_000);
  }, 120_000);

  // What kill9 found, replayed deterministically: the files a writer killed at the wrong moment leaves.
  it('is not held up by the index lock of a killed process, and removes its temp files', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await openSessions({ home, cwd });
    const session = await sessions.create();
    await session.append({ role: 'user', content: 'kept' });
    await session.save();
    await session.close();
    const lock = join(layout.project(sessions.store.location, sessions.project.key), 'index.json.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'holder'), `${DEAD_PID} ${hostname()}\n`);
    writeFileSync(join((await session.status()).where!.files!.dir, '.session.json.tmp-999-abcd'), '{"half":');

    const started = Date.now();
    const resumed = await sessions.resume(session.id);
    await resumed.save();
    await resumed.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(resumed.messages.map((m) => m.content)).toEqual(['kept']);
    expect(readdirSync((await session.status()).where!.files!.dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
    expect(existsSync(lock)).toBe(false);
  });

  it('keeps a reply that was streaming when a snapshot was taken, whenever the kill comes', async () => {
    const home = tmpHome();
    const sessions = await openSessions({ home, cwd: tmpHome('chatkeep-project-') });
    const session = await sessions.create();
    await session.append({ role: 'user', content: 'tell me' });
    const reply = session.beginReply();
    await reply.push('Echo: tell me ');
    await reply.push('(read ');
    // The journal as it is when the new snapshot replaces the old one: a kill -9 right after
    // the rename leaves exactly this journal beside the new snapshot.
    const journal = join((await session.status()).where!.files!.dir, 'journal.jsonl');
    const atRename = join(home, 'journal-at-rename');
    atomicWriteHooks.beforeRename = (_tmp, target) => {
      if (target.endsWith('session.json')) copyFileSync(journal, atRename);
    };
    try {
      await session.save();
    } finally {
      atomicWriteHooks.beforeRename = undefined;
    }
    copyFileSync(atRename, journal);
    const read = await sessions.read(session.id);
    expect(read.messages.map((m) => [m.role, m.content, m.interrupted ?? false])).toEqual([
      ['user', 'tell me', false],
      ['assistant', 'Echo: tell me (read ', true],
    ]);
    await reply.finish();
    await session.close();
  });
});
