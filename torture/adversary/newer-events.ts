/**
 * A newer build's event of each known type with a value this build does not know, written
 * behind chatkeep's back after three messages (a journal line, an `events` row), then the
 * session resumed three times. Each resume must hold exactly the three messages, keep the event
 * unapplied, and leave a snapshot that reads back whole.
 */
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openSessions } from '../../src/index.js';
import { runSql } from '../../test/helpers/postgres.js';
import { freshDir } from '../proc.js';
import type { AdversaryContext, AdversaryTrial } from './trial.js';
import { NEWER_VALUES } from './newer-values.js';

const MESSAGES = ['one', 'two', 'three'];

async function newerEvent(context: AdversaryContext, index: number): Promise<void> {
  const { store, tally } = context;
  const home = freshDir(context.root, `adversary-newer-${store.kind}-${index}`);
  const open = () => openSessions({ home, cwd: join(home, 'project'), ...(store.kind === 'postgres' ? { store: store.url } : {}) });
  const sessions = await open();
  const session = await sessions.create();
  for (const content of MESSAGES) await session.append({ role: 'user', content });
  const { id } = session;
  const dir = session.where.files?.dir;
  await session.close();
  const seq = (await sessions.read(id)).journalSeq + 1;
  const { type, payload } = NEWER_VALUES[index]!;
  const ts = new Date().toISOString();
  if (store.kind === 'file') {
    await appendFile(join(dir!, 'journal.jsonl'), `${JSON.stringify({ seq, ts, type, payload })}\n`);
  } else {
    await runSql(store.url, 'INSERT INTO chatkeep.events (session_id, seq, ts, type, payload) VALUES ($1, $2, $3, $4, $5::json)', [id, seq, ts, type, JSON.stringify(payload)]);
  }
  await sessions.close();

  for (let resume = 0; resume < 3; resume++) {
    const again = await open();
    const resumed = await again.resume(id);
    const contents = resumed.messages.map((m) => m.content);
    await resumed.close();
    const label = `${type} #${index} (${store.kind}), resume ${resume + 1}`;
    for (const m of MESSAGES) if (!contents.includes(m)) tally.fail('messagesLost', `${label}: "${m}" missing`);
    for (const c of contents) if (!MESSAGES.includes(c)) tally.fail('phantomMessages', `${label}: "${c}" appeared`);
    if (new Set(contents).size !== contents.length) tally.fail('duplicatedMessages', `${label}: ${JSON.stringify(contents)}`);
    const reading = await again.inspect(id);
    if (reading.problem) tally.fail('snapshotsDamaged', `${label}: ${reading.problem.kind} (${reading.problem.detail})`);
    if (!reading.snapshot?.futureEvents?.some((e) => e.seq === seq)) tally.fail('eventsDropped', `${label}: the newer ${type} event is gone`);
    tally.add('messagesChecked', contents.length);
    await again.close();
  }
  tally.add('trials');
}

export const newerEventTrials: AdversaryTrial[] = NEWER_VALUES.map((value, index) => ({
  name: `newer ${value.type} #${index}`,
  stores: ['file', 'postgres'],
  run: (context) => newerEvent(context, index),
}));
