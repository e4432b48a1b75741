/**
 * A write failing mid-reply, each kind on its store: a full disk (a small tmpfs mounted for the
 * trial, root), the lock's backend ended by pg_terminate_backend, an INSERT held back by another
 * connection's row lock past the read timeout (its outcome unknown until settled). After each,
 * the session is taken back or closed and resumed: what is stored must be what was shown, in
 * order; anything else counts as a phantom, a duplicate or a loss.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openSessions, type Message, type Session } from '../../src/index.js';
import { interpreter } from '../../src/session/runtime/interpreter.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { managerOn } from '../../test/contract/contract-kit.js';
import { holdSessionRow, runSql } from '../../test/helpers/postgres.js';
import { fill } from '../../test/helpers/fill-disk.js';
import { freshDir } from '../proc.js';
import type { AdversaryContext, AdversaryTrial } from './trial.js';

const line = (m: Message): string => `${m.role}${m.interrupted ? ' (interrupted)' : ''}: ${m.content}`;

/** Counts what `stored` holds that was not `shown`, twice, or not at all. */
export function compare(context: AdversaryContext, label: string, shown: string[], stored: readonly Message[]): void {
  const got = stored.map(line);
  for (const m of shown) if (!got.includes(m)) context.tally.fail('messagesLost', `${label}: "${m}" missing`);
  for (const m of got) if (!shown.includes(m)) context.tally.fail('phantomMessages', `${label}: "${m}" appeared`);
  if (new Set(got).size !== got.length) context.tally.fail('duplicatedMessages', `${label}: ${JSON.stringify(got)}`);
  else if (got.join('\n') !== shown.join('\n') && shown.every((m) => got.includes(m))) context.tally.fail('phantomMessages', `${label}: out of order ${JSON.stringify(got)}`);
  context.tally.add('messagesChecked', got.length);
}

/** An exchange saved, a question, and its reply streamed part-way: what is on screen. */
export async function midReply(s: Session): Promise<{ push(text: string): Promise<string>; finish(): Promise<unknown>; shown: string[] }> {
  await s.append({ role: 'user', content: 'q1' }, { role: 'assistant', content: 'a1' });
  await s.save();
  await s.append({ role: 'user', content: 'q2' });
  const writer = s.beginReply();
  let stored = '';
  for (const piece of ['The answer ', 'begins here, ', 'and goes on ']) stored += await writer.push(piece);
  const shown = ['user: q1', 'assistant: a1', 'user: q2', `assistant (interrupted): ${stored}`];
  return { push: (text) => writer.push(text), finish: () => writer.finish({ interrupted: true }), shown };
}

async function fullDisk(context: AdversaryContext, n: number): Promise<void> {
  const home = freshDir(context.root, `adversary-full-disk-${n}`);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', home], { stdio: 'pipe' });
  try {
    const cwd = join(context.root, `adversary-full-disk-${n}-project`);
    mkdirSync(cwd, { recursive: true });
    const s = await (await openSessions({ home, cwd })).create();
    const reply = await midReply(s);
    const free = fill(home);
    await reply.push('word '.repeat(3000)).catch(() => undefined);
    await reply.finish().catch(() => undefined);
    compare(context, `full disk #${n}, live`, reply.shown, s.messages);
    free();
    await s.append({ role: 'user', content: 'q3' });
    await s.close();
    const again = await (await openSessions({ home, cwd })).resume(s.id);
    compare(context, `full disk #${n}, resumed`, [...reply.shown, 'user: q3'], again.messages);
    await again.close();
  } finally {
    execFileSync('umount', ['-l', home]);
  }
  context.tally.add('trials');
}

async function terminated(context: AdversaryContext, url: string, n: number): Promise<void> {
  const home = freshDir(context.root, `adversary-terminated-${n}`);
  const open = () => openSessions({ home, cwd: join(home, 'project'), store: url });
  const s = await (await open()).create();
  const reply = await midReply(s);
  await runSql(url, 'SELECT pg_terminate_backend(backend_pid) FROM chatkeep.holders WHERE session_id = $1', [s.id]);
  for (let i = 0; i < 200 && !s.readOnly; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  await reply.push('more ').catch(() => undefined);
  await reply.finish().catch(() => undefined);
  if (!(await s.retake()).retaken) context.tally.fail('needlessForks', `terminated #${n}: not taken back`);
  await s.append({ role: 'user', content: 'q3' });
  await s.close();
  const again = await (await open()).resume(s.id);
  compare(context, `terminated #${n}`, [...reply.shown, 'user: q3'], again.messages);
  await again.close();
  context.tally.add('trials');
}

async function heldBack(context: AdversaryContext, url: string, n: number): Promise<void> {
  const store = await openPostgresStore(url, { interpreter, cwd: freshDir(context.root, `adversary-held-back-${n}`), timeouts: { queryTimeoutMs: 1_500 } });
  try {
    const sessions = managerOn(store, () => new Date());
    const s = await sessions.create();
    await s.append({ role: 'user', content: 'q1' }, { role: 'assistant', content: 'a1' });
    const release = await holdSessionRow(url, s.id);
    const sent = s.append({ role: 'user', content: 'q2' }).then(() => true, () => false);
    for (let i = 0; i < 400 && !s.readOnly; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await release();
    const told = await sent;
    if (!(await s.retake()).retaken) context.tally.fail('needlessForks', `held back #${n}: not taken back`);
    await s.close();
    const shown = ['user: q1', 'assistant: a1', ...(told ? ['user: q2'] : [])];
    compare(context, `held back #${n} (told ${told ? 'stored' : 'not stored'})`, shown, (await sessions.read(s.id)).messages);
  } finally {
    await store.close();
  }
  context.tally.add('trials');
}

const rounds = (context: AdversaryContext): number[] => [...Array(context.quick ? 1 : 3).keys()];

export const writeFailureTrials: AdversaryTrial[] = [
  { name: 'full disk mid-reply', stores: ['file'], run: async (c) => { for (const n of rounds(c)) await fullDisk(c, n); } },
  { name: 'backend terminated mid-reply', stores: ['postgres'], run: async (c) => { for (const n of rounds(c)) if (c.store.kind === 'postgres') await terminated(c, c.store.url, n); } },
  { name: 'INSERT held back past the read timeout', stores: ['postgres'], run: async (c) => { for (const n of rounds(c)) if (c.store.kind === 'postgres') await heldBack(c, c.store.url, n); } },
];
