/**
 * Leaving costs little (docs/design.md §5): a closing snapshot leaves a small journal for a later
 * snapshot to compact (snapshot-compaction.ts), and nothing a reader sees changes for it.
 */
import { readFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpHome } from '../../helpers/tmp-home.js';
import { openSessions } from '../../../src/index.js';
import { decodeSnapshot } from '../../../src/session/format/codec.js';
import { DEFERRED_JOURNAL_BYTES } from '../../../src/store/file/snapshot-compaction.js';

function journalLines(dir: string): { seq: number; type: string }[] {
  return readFileSync(join(dir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { seq: number; type: string });
}

async function snapshotOf(dir: string): Promise<{ status: string; journalSeq: number; messages: { content: string }[] }> {
  return decodeSnapshot(readFileSync(join(dir, 'session.json'), 'utf8'), 'session.json');
}

/** A new session of one exchange ('one', 'two'), closed. */
async function closedExchange() {
  const sessions = await openSessions({ home: tmpHome(), cwd: tmpHome() });
  const s = await sessions.create();
  await s.append({ role: 'user', content: 'one' });
  await s.append({ role: 'assistant', content: 'two' });
  const dir = s.where.files!.dir;
  await s.close();
  return { sessions, s, dir };
}

describe('the journal a closing snapshot leaves', () => {
  it('keeps its lines up to the closed snapshot, which every reader skips: each message is read once', async () => {
    const { sessions, s, dir } = await closedExchange();

    const snapshot = await snapshotOf(dir);
    expect(snapshot.status).toBe('closed');
    expect(snapshot.messages.map((m) => m.content)).toEqual(['one', 'two']);
    const lines = journalLines(dir);
    expect(lines.filter((l) => l.type === 'message')).toHaveLength(2);
    expect(Math.max(...lines.map((l) => l.seq))).toBeLessThanOrEqual(snapshot.journalSeq);

    expect((await sessions.read(s.id)).messages.map((m) => m.content)).toEqual(['one', 'two']);
    const [row] = await sessions.list();
    expect(row).toMatchObject({ id: s.id, messageCount: 2, status: 'closed' });
    const resumed = await sessions.resume(s.id);
    expect(resumed.messages.map((m) => m.content)).toEqual(['one', 'two']);
    await resumed.append({ role: 'user', content: 'three' });
    // A running snapshot empties the journal (its lines are all in it)…
    await resumed.save();
    expect(statSync(join(dir, 'journal.jsonl')).size).toBe(0);
    await resumed.close();
    expect((await sessions.read(s.id)).messages.map((m) => m.content)).toEqual(['one', 'two', 'three']);
  });

  it('gives back every message when the closed snapshot is damaged', async () => {
    const { sessions, s, dir } = await closedExchange();
    truncateSync(join(dir, 'session.json'), 10);
    const resumed = await sessions.resume(s.id);
    expect(resumed.messages.map((m) => m.content)).toEqual(['one', 'two']);
    await resumed.close();
  });

  it('stays small: once a close finds it past the limit, that close empties it', async () => {
    const home = tmpHome();
    const cwd = tmpHome();
    const sessions = await openSessions({ home, cwd });
    const first = await sessions.create();
    const id = first.id;
    const dir = first.where.files!.dir;
    await first.append({ role: 'user', content: 'start' });
    await first.close();
    const text = 'x'.repeat(4_000);
    const sizes: number[] = [];
    let sent = 1;
    // One-shot runs: resume, one exchange, close (no running snapshot in between).
    for (let run = 0; run < 30; run++) {
      const s = await sessions.resume(id);
      await s.append({ role: 'user', content: `${run} ${text}` });
      await s.append({ role: 'assistant', content: `${run} ok` });
      sent += 2;
      await s.close();
      sizes.push(statSync(join(dir, 'journal.jsonl')).size);
    }
    expect(Math.max(...sizes)).toBeLessThanOrEqual(DEFERRED_JOURNAL_BYTES + 3 * (text.length + 500));
    expect(sizes).toContain(0);
    const read = await sessions.read(id);
    expect(read.messages).toHaveLength(sent);
    expect(read.messages.at(-1)!.content).toBe('29 ok');
  });
});
