/**
 * Two machines racing for one session on a shared PostgreSQL: two chatkeeps, one of them in a
 * UTS namespace of its own with another host name (`unshare -u` + `hostname`), started at the
 * same moment on the same session. Exactly one may win; the other exits 3 naming the winner's
 * pid and host. Then the winner is killed -9 and the other starts again: the server freed the
 * lock with the dead connection, so it must take the session over at once, with what the
 * winner had shown.
 */
import { hostname } from 'node:os';
import { openSessions } from '../src/index.js';
import { median } from '../measure/median.js';
import { Tally, type PartResult } from './part.js';
import { freshDir, spawnPiped, type Piped, type RunOptions } from './proc.js';
import { createRandom } from './random.js';

/** Size and place of a two-host race run. */
export interface PgHostsOptions {
  root: string;
  /** The database both hosts share. */
  url: string;
  /** Races (default 100), each followed by a kill -9 of the winner and a takeover. */
  rounds?: number;
  seed?: number;
}

/** The simulated second machine's host name. */
export const OTHER_HOST = 'chatkeep-other-host';

/** Outcome of one start: its prompt reached, or its exit code. */
function outcome(p: Piped): Promise<string> {
  return Promise.race([p.waitStderr('Type a message', { timeout: 20_000 }).then(() => 'won'), p.closed.then((code) => `exit ${code}`)]).catch(
    (e: unknown) => `error ${String(e)}`,
  );
}

export async function run(options: PgHostsOptions): Promise<PartResult> {
  const tally = new Tally('pg-hosts', { rounds: 0, winsHere: 0, winsOnOtherHost: 0, takeovers: 0, takersKilled: 0 }, [
    'roundsWithoutOneWinner',
    'losersMisreported',
    'takeoversRefused',
    'messagesLost',
    'runsFailed',
  ]);
  const rng = createRandom(options.seed ?? 1);
  const cwd = freshDir(options.root, 'hosts-project-');
  // Each machine has its own data directory (config, nothing else): only the server is shared.
  const here: RunOptions = { home: freshDir(options.root, 'hosts-home-'), cwd, env: { CHATKEEP_STORE: options.url } };
  const there: RunOptions = { ...here, home: freshDir(options.root, 'hosts-other-home-'), host: OTHER_HOST };
  const hostOf = (o: RunOptions): string => o.host ?? hostname();
  const manager = await openSessions({ home: here.home, cwd, store: options.url });
  const session = await manager.create();
  await session.close();
  const args = ['--session-id', session.id, '--autosave', 'off'];
  const takeovers: number[] = [];
  try {
    for (let round = 0; round < (options.rounds ?? 100); round++) {
      tally.add('rounds');
      const sides = rng.chance(0.5) ? [here, there] : [there, here];
      // Spawned in the same tick: neither has a head start beyond the order of two spawn calls.
      const pair = sides.map((side) => spawnPiped(args, side));
      const outcomes = await Promise.all(pair.map(outcome));
      const won = outcomes.flatMap((o, i) => (o === 'won' ? [i] : []));
      if (won.length !== 1) {
        tally.fail('roundsWithoutOneWinner', `round ${round}: ${outcomes.join(' | ')}: ${pair.map((p) => p.stderr().trim()).join(' | ')}`);
        for (const p of pair) p.kill();
        await Promise.all(pair.map((p) => p.closed));
        continue;
      }
      const w = won[0]!;
      const winner = pair[w]!;
      const loser = pair[1 - w]!;
      const loserSide = sides[1 - w]!;
      tally.add(sides[w]!.host === undefined ? 'winsHere' : 'winsOnOtherHost');
      const code = await loser.closed;
      const lines = loser.stderr().trim().split('\n');
      if (code !== 3 || lines.length !== 1 || !lines[0]!.includes(`in use by process ${winner.pid} on ${hostOf(sides[w]!)} `)) {
        tally.fail('losersMisreported', `round ${round}: exit ${code}, winner pid ${winner.pid} on ${hostOf(sides[w]!)}: ${loser.stderr().trim()}`);
      }
      // The winner says something, is killed -9, and the loser's machine takes the session over.
      const message = `round ${round} from ${hostOf(sides[w]!)}`;
      const from = winner.stdout().length;
      winner.write(`${message}\n`);
      try {
        await winner.waitStdout(`Echo: ${message} (read `, { from });
        await winner.waitStdout('\n', { from: winner.stdout().length - 1 });
      } catch (err) {
        tally.fail('runsFailed', `round ${round}: the winner did not answer: ${String(err)}`);
      }
      winner.kill('SIGKILL');
      await winner.closed;
      const started = Date.now();
      const taker = spawnPiped(args, loserSide);
      const took = await outcome(taker);
      if (took !== 'won') {
        tally.fail('takeoversRefused', `round ${round}, ${Date.now() - started} ms after the kill: ${took}: ${taker.stderr().trim()}`);
        taker.kill();
        await taker.closed;
        continue;
      }
      tally.add('takeovers');
      takeovers.push(Date.now() - started);
      // Half the takers die too, leaving their holder row behind for the next race to see.
      if (rng.chance(0.5)) {
        tally.add('takersKilled');
        taker.kill('SIGKILL');
        await taker.closed;
      } else {
        taker.write('/quit\n');
        const quit = await taker.closed;
        if (quit !== 0) tally.fail('runsFailed', `round ${round}: the taker did not quit cleanly (exit ${quit}): ${taker.stderr().trim()}`);
      }
      const read = await manager.read(session.id);
      const users = read.messages.filter((m) => m.role === 'user' && m.content === message);
      if (users.length !== 1) tally.fail('messagesLost', `round ${round}: "${message}" is in the session ${users.length} times`);
    }
  } finally {
    await manager.close();
  }
  tally.figures.medianTakeoverMs = takeovers.length ? Math.round(median(takeovers)) : 0;
  tally.figures.slowestTakeoverMs = Math.max(0, ...takeovers);
  return tally.result();
}
