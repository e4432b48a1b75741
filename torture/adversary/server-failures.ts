/**
 * The PostgreSQL server itself failing mid-reply, on a server each trial starts for itself (the
 * part's shared one keeps running): stopped and started again, and the tablespace holding
 * chatkeep's tables full (a small tmpfs mounted for the trial: root). After each, the session is
 * taken back if it was lost, the chat goes on, and it is closed and resumed: what is stored must
 * be what was shown, in order, once.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSessions, type Session } from '../../src/index.js';
import { createDatabase, runSql, startPostgres } from '../../test/helpers/postgres.js';
import { fill } from '../../test/helpers/fill-disk.js';
import { freshDir } from '../proc.js';
import type { AdversaryContext, AdversaryTrial } from './trial.js';
import { compare, midReply } from './write-failures.js';

type Server = Awaited<ReturnType<typeof startPostgres>>;

/** Runs `trial` on a server of its own, stopped whatever happens. */
async function onOwnServer(trial: (server: Server) => Promise<void>): Promise<void> {
  const server = await startPostgres();
  try {
    await trial(server);
  } finally {
    await server.stop();
  }
}

/** Tries a write of the reply; a refusal is counted under `figure` (a trial where nothing was refused tested nothing). */
async function tryWrite(context: AdversaryContext, figure: string, write: () => Promise<unknown>): Promise<void> {
  await write().then(
    () => undefined,
    () => context.tally.add(figure),
  );
}

/** Waits (at most 10 s) until `s` knows its lock is gone, if it is going to. */
async function settled(s: Session): Promise<void> {
  for (let i = 0; i < 40 && !s.readOnly; i++) await new Promise((resolve) => setTimeout(resolve, 250));
}

/** After the failure: taken back when lost, the next question, closed, resumed, compared. */
async function goOn(context: AdversaryContext, label: string, s: Session, shown: string[], open: () => ReturnType<typeof openSessions>): Promise<void> {
  if (s.readOnly && !(await s.retake()).retaken) context.tally.fail('needlessForks', `${label}: not taken back`);
  compare(context, `${label}, live`, shown, s.messages);
  await s.append({ role: 'user', content: 'q3' });
  await s.close();
  const again = await (await open()).resume(s.id);
  compare(context, `${label}, resumed`, [...shown, 'user: q3'], again.messages);
  await again.close();
  context.tally.add('trials');
}

async function restarted(context: AdversaryContext, n: number): Promise<void> {
  await onOwnServer(async (server) => {
    const url = await createDatabase(server.url);
    const home = freshDir(context.root, `adversary-restart-${n}`);
    const open = () => openSessions({ home, cwd: join(home, 'project'), store: url });
    const s = await (await open()).create();
    const reply = await midReply(s);
    await server.halt();
    await tryWrite(context, 'restartWritesRefused', () => reply.push('more '));
    await tryWrite(context, 'restartWritesRefused', () => reply.finish());
    await settled(s);
    await server.restart();
    await goOn(context, `restarted #${n}`, s, reply.shown, open);
  });
}

async function fullTablespace(context: AdversaryContext, n: number): Promise<void> {
  await onOwnServer(async (server) => {
    // In the system's temp folder, not the part's (0700) root: the server's own user must reach it.
    const disk = realpathSync(mkdtempSync(join(tmpdir(), `chatkeep-tablespace-${n}-`)));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m,mode=0755', 'tmpfs', disk], { stdio: 'pipe' });
    try {
      const location = join(disk, 'tablespace');
      mkdirSync(location);
      execFileSync('chown', ['postgres:postgres', location]);
      const url = await createDatabase(server.url);
      await runSql(server.url, `CREATE TABLESPACE small_${n} LOCATION '${location}'`);
      // chatkeep makes its schema on first use: all of it lands in the small tablespace.
      await runSql(server.url, `ALTER DATABASE ${new URL(url).pathname.slice(1)} SET default_tablespace = small_${n}`);
      const home = freshDir(context.root, `adversary-tablespace-home-${n}`);
      const open = () => openSessions({ home, cwd: join(home, 'project'), store: url });
      const s = await (await open()).create();
      const reply = await midReply(s);
      const free = fill(disk);
      // A piece that does not compress needs pages the tablespace no longer has.
      await tryWrite(context, 'tablespaceWritesRefused', () => reply.push(randomBytes(16_000).toString('hex')));
      await tryWrite(context, 'tablespaceWritesRefused', () => reply.finish());
      await settled(s);
      free();
      await goOn(context, `full tablespace #${n}`, s, reply.shown, open);
    } finally {
      execFileSync('umount', ['-l', disk]);
      rmSync(disk, { recursive: true, force: true });
    }
  });
}

const rounds = (context: AdversaryContext): number[] => [...Array(context.quick ? 1 : 3).keys()];

export const serverFailureTrials: AdversaryTrial[] = [
  { name: 'server restarted mid-reply', stores: ['postgres'], run: async (c) => { for (const n of rounds(c)) await restarted(c, n); } },
  { name: 'tablespace full mid-reply', stores: ['postgres'], run: async (c) => { for (const n of rounds(c)) await fullTablespace(c, n); } },
];
