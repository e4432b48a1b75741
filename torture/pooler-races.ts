/**
 * Two writers through PgBouncer in transaction pooling (docs/design.md §11, §12), where a session-level
 * advisory lock holds nothing: two processes released at the same moment resume one session;
 * exactly one may win, the other is refused naming it. The winner appends messages, each
 * acknowledged on stdout once `append` resolved, and holds the session until the loser has answered; in half the races it is killed -9 at a random
 * moment and the loser takes the session over and appends more. Afterwards every acknowledged
 * message is stored, in the order acknowledged (nothing rolled back), and no advisory lock is left
 * on any server connection.
 */
import { openSessions } from '../src/index.js';
import { LOCK_SPACE } from '../src/store/postgres/lock-key.js';
import { runSql } from '../test/helpers/postgres.js';
import { startChild, writeScript, type LineChild } from './children.js';
import { runTrials, Tally, type PartResult } from './part.js';
import { freshDir } from './proc.js';
import type { Random } from './random.js';

export interface PoolerRacesOptions {
  root: string;
  /** The database's URL through PgBouncer (transaction pooling). */
  pooled: string;
  /** The same database without the pooler (for looking at what is stored and at pg_locks). */
  direct: string;
  races?: number;
  /** Messages the winner appends (default 6). */
  messages?: number;
  workers?: number;
  seed?: number;
}

const WRITER = `
const { openSessions } = await import(LIB);
const [home, cwd, store, id, tag, count] = process.argv.slice(2);
const sessions = await openSessions({ home, cwd, store });
process.stdin.setEncoding('utf8');
process.stdin.once('data', async () => {
  let session;
  try {
    session = await sessions.resume(id);
  } catch (err) {
    console.log((err && err.code === 'E_SESSION_IN_USE' ? 'refused ' : 'error ') + JSON.stringify(String(err && err.message)));
    process.exit(0);
  }
  console.log('won');
  try {
    for (let i = 0; i < Number(count); i++) {
      await session.append({ role: 'user', content: tag + ' ' + i });
      console.log('ack ' + tag + ' ' + i);
    }
    // Held until the other racer has answered: a loser slower than the whole run must still find it held.
    console.log('written');
    await new Promise((resolve) => process.stdin.once('data', resolve));
    await session.close();
    console.log('closed');
  } catch (err) {
    console.log('error ' + JSON.stringify(String(err && err.message)));
  }
  process.exit(0);
});
console.log('ready');
`;

export async function run(options: PoolerRacesOptions): Promise<PartResult> {
  const tally = new Tally('pg-pooler', { races: 0, winnersKilled: 0, takeovers: 0, messagesAcknowledged: 0 }, [
    'racesWithoutOneWinner',
    'losersMisreported',
    'takeoversRefused',
    'acknowledgedLost',
    'rolledBack',
    'advisoryLocksLeft',
    'errors',
  ]);
  const script = writeScript(options.root, 'pooler-writer', WRITER);
  await runTrials(options.races ?? 100, options.workers ?? 2, options.seed ?? 1, async (t, rng) => {
    await race(t, rng, script, options, tally).catch((err: unknown) => tally.fail('errors', `race ${t}: ${String(err)}`));
    tally.add('races');
  });
  // pg_locks is the whole server's: only this database's locks are the races' (other databases
  // of the same server, such as other tests', hold locks of their own meanwhile).
  const left = await runSql<{ n: number }>(
    options.direct,
    `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = ${LOCK_SPACE}::oid AND objsubid = 2
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  tally.add('advisoryLocksLeft', left[0]?.n ?? 0);
  return tally.result();
}

async function race(t: number, rng: Random, script: string, options: PoolerRacesOptions, tally: Tally): Promise<void> {
  const home = freshDir(options.root, 'home-');
  const cwd = freshDir(options.root, 'project-');
  const count = options.messages ?? 6;
  const manager = await openSessions({ home, cwd, store: options.direct });
  const created = await manager.create();
  await created.append({ role: 'user', content: `race ${t}` });
  await created.close();
  await manager.close();
  const start = (tag: string): LineChild => startChild(script, [home, cwd, options.pooled, created.id, tag, String(count)]);
  const pair = [start('a'), start('b')];
  await Promise.all(pair.map((c) => c.next(60_000)));
  for (const child of pair) child.send('go');
  const first = await Promise.all(pair.map((c) => c.next(60_000)));
  const winners = first.filter((line) => line === 'won').length;
  if (winners !== 1) {
    tally.fail('racesWithoutOneWinner', `race ${t}: ${JSON.stringify(first)}`);
    for (const child of pair) child.proc.kill('SIGKILL');
    return;
  }
  const winner = pair[first.indexOf('won')]!;
  const loser = pair[1 - first.indexOf('won')]!;
  const refusal = first[1 - first.indexOf('won')]!;
  if (!refusal.startsWith('refused ') || !refusal.includes(`process ${winner.pid} `)) tally.fail('losersMisreported', `race ${t}: ${refusal}`);
  await loser.exited;

  const acked: string[] = [`race ${t}`];
  const kill = rng.chance(0.5) ? rng.int(0, count) : undefined;
  for (;;) {
    if (kill !== undefined && acked.length - 1 >= kill) {
      winner.proc.kill('SIGKILL');
      tally.add('winnersKilled');
      break;
    }
    const line = await winner.next(60_000).catch(() => 'gone');
    if (line.startsWith('ack ')) acked.push(line.slice(4));
    else if (line === 'written') winner.send('close');
    else if (line === 'closed') break;
    else {
      tally.fail('errors', `race ${t}: winner said ${line}`);
      break;
    }
  }
  await winner.exited;
  if (kill !== undefined) {
    // The loser (a new process as it would start again) takes over the dead winner's session at once.
    const taker = start('c');
    await taker.next(60_000);
    taker.send('go');
    const said = await taker.next(60_000);
    if (said !== 'won') tally.fail('takeoversRefused', `race ${t}: ${said}`);
    else {
      tally.add('takeovers');
      for (let line = await taker.next(60_000); line !== 'closed'; line = await taker.next(60_000)) {
        if (line === 'written') {
          taker.send('close');
          continue;
        }
        if (!line.startsWith('ack ')) {
          tally.fail('errors', `race ${t}: taker said ${line}`);
          break;
        }
        acked.push(line.slice(4));
      }
    }
    await taker.exited;
  }
  tally.add('messagesAcknowledged', acked.length - 1);
  const reader = await openSessions({ home, cwd, store: options.direct });
  try {
    const stored = (await reader.read(created.id)).messages.map((m) => m.content);
    const lost = acked.filter((text) => !stored.includes(text));
    if (lost.length > 0) tally.fail('acknowledgedLost', `race ${t}: ${JSON.stringify(lost)} missing from ${JSON.stringify(stored)}`);
    const order = stored.filter((text) => acked.includes(text));
    if (lost.length === 0 && order.join('\n') !== acked.join('\n')) tally.fail('rolledBack', `race ${t}: stored ${JSON.stringify(stored)}, acknowledged ${JSON.stringify(acked)}`);
  } finally {
    await reader.close();
  }
}
