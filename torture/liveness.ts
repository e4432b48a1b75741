/**
 * Liveness by identity (docs/design.md §11): holders that are gone although their pid says
 * otherwise. Each trial leaves a session's lock to a holder that cannot write any more, then
 * resumes the session at once:
 *   - zombie: a holder killed with kill -9 under a parent that never reaps it (the pid stays, as
 *     a zombie, for as long as the parent lives);
 *   - recycled: an owner file naming a live, unrelated process (the pid was reused), taken "years
 *     ago" with a start time that is not that process's.
 * Figures: sessions refused (must be 0) and the slowest takeover.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { openSessions } from '../src/index.js';
import { layout } from '../src/store/file/layout.js';
import { writeScript } from './children.js';
import { runTrials, Tally, type PartResult } from './part.js';
import { freshDir } from './proc.js';

export interface LivenessOptions {
  root: string;
  /** Trials, alternating zombie and recycled (default 100). */
  trials?: number;
  workers?: number;
  seed?: number;
}

const HOLD = `
const { openSessions } = await import(LIB);
const [home, cwd, id] = process.argv.slice(2);
const sessions = await openSessions({ home, cwd });
await sessions.resume(id);
console.log('held');
setInterval(() => {}, 1 << 30);
`;

export async function run(options: LivenessOptions): Promise<PartResult> {
  const tally = new Tally('liveness', { trials: 0, zombieHolders: 0, recycledPids: 0, slowestTakeoverMs: 0 }, ['sessionsRefused', 'messagesLost', 'crashes']);
  const script = writeScript(options.root, 'liveness-hold', HOLD);
  await runTrials(options.trials ?? 100, options.workers ?? 2, options.seed ?? 1, async (t) => {
    const kind = t % 2 === 0 ? 'zombie' : 'recycled';
    await trial(kind, t, script, options.root, tally).catch((err: unknown) => tally.fail('crashes', `trial ${t} (${kind}): ${String(err)}`));
    tally.add('trials');
  });
  return tally.result();
}

async function trial(kind: 'zombie' | 'recycled', t: number, script: string, root: string, tally: Tally): Promise<void> {
  const home = freshDir(root, 'home-');
  const cwd = freshDir(root, 'project-');
  const sessions = await openSessions({ home, cwd });
  const first = await sessions.create();
  await first.append({ role: 'user', content: `kept ${t}` });
  await first.close();
  const dir = (await first.status()).where?.files?.dir;
  // What holds the session now, and what to end once the trial is over.
  const cleanup = kind === 'zombie' ? await zombieHolder(script, home, cwd, first.id) : recycledOwner(dir!);
  tally.add(kind === 'zombie' ? 'zombieHolders' : 'recycledPids');
  try {
    const started = Date.now();
    const resumed = await sessions.resume(first.id).catch((err: unknown) => {
      tally.fail('sessionsRefused', `trial ${t} (${kind}): ${String(err)}`);
      return undefined;
    });
    if (!resumed) return;
    tally.max('slowestTakeoverMs', Date.now() - started);
    if (resumed.messages.map((m) => m.content).join() !== `kept ${t}`) tally.fail('messagesLost', `trial ${t}: ${JSON.stringify(resumed.messages)}`);
    await resumed.close();
  } finally {
    cleanup();
  }
}

/**
 * A holder killed with kill -9 whose parent never reaps it: `sh` starts the holder, then becomes
 * `sleep` (exec), which never waits for children. Resolves once the holder is a zombie.
 */
async function zombieHolder(script: string, home: string, cwd: string, id: string): Promise<() => void> {
  const parent = spawn('sh', ['-c', `"$0" "$@" & echo $!; exec sleep 600`, process.execPath, script, home, cwd, id], { stdio: ['ignore', 'pipe', 'inherit'] });
  const holderPid = await new Promise<number>((resolve, reject) => {
    let out = '';
    parent.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const [pid, said] = out.split('\n');
      if (said?.includes('held')) resolve(Number(pid));
    });
    parent.once('exit', () => reject(new Error(`the holder's parent ended: ${out}`)));
    setTimeout(() => reject(new Error(`the holder did not take the lock: ${out}`)), 30_000).unref();
  });
  process.kill(holderPid, 'SIGKILL');
  // Until the kernel has made it a zombie, kill(pid, 0) and /proc see it alive either way.
  for (let i = 0; i < 200 && !isZombie(holderPid); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!isZombie(holderPid)) throw new Error(`holder ${holderPid} did not become a zombie`);
  return () => parent.kill('SIGKILL');
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

/**
 * An owner file as a holder years ago left it, whose pid is now an unrelated live process (a
 * `sleep` started for the trial): same pid and host, but not the start time recorded.
 */
function recycledOwner(dir: string): () => void {
  const stranger = spawn('sleep', ['600'], { stdio: 'ignore' });
  const lockDir = layout.lock(dir);
  mkdirSync(lockDir);
  const record = { pid: stranger.pid, host: hostname(), startedAt: '2019-01-01T00:00:00.000Z', lockIno: statSync(lockDir).ino, procStart: '1', epoch: 1 };
  writeFileSync(layout.lockOwner(dir), `${JSON.stringify(record)}\n`);
  writeFileSync(layout.lockEpoch(dir), '1\n');
  return () => stranger.kill('SIGKILL');
}
