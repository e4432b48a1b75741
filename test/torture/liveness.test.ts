import { spawn } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it, onTestFinished } from 'vitest';
import { openSessions, SessionInUseError } from '../../src/index.js';
import { layout } from '../../src/store/file/layout.js';
import { run } from '../../torture/liveness.js';
import { nonZero } from '../../torture/part.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('torture: holders that are gone although their pid lives on (docs/design.md §11)', () => {
  it('takes over at once from a zombie holder and from an owner file naming a recycled pid', async () => {
    const result = await run({ root: tmpHome('chatkeep-torture-'), trials: 6 });
    expect(result.failures).toEqual([]);
    expect(nonZero(result)).toEqual([]);
    expect(result.figures).toMatchObject({ trials: 6, zombieHolders: 3, recycledPids: 3, sessionsRefused: 0 });
    expect(result.figures.slowestTakeoverMs).toBeLessThan(5_000);
  }, 120_000);

  it('an owner file of an older build (no start time): a live pid holds, unless its process started after the lock was taken (a reused pid)', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await openSessions({ home: tmpHome(), cwd });
    const session = await sessions.create();
    await session.append({ role: 'user', content: 'kept' });
    await session.close();
    const dir = (await session.status()).where!.files!.dir;
    const other = spawn('sleep', ['600'], { stdio: 'ignore' });
    onTestFinished(() => void other.kill('SIGKILL'));
    await new Promise((resolve) => other.once('spawn', resolve));
    mkdirSync(layout.lock(dir));
    const ownerFile = (startedAt: string): void =>
      writeFileSync(layout.lockOwner(dir), `${JSON.stringify({ pid: other.pid, host: hostname(), startedAt, lockIno: statSync(layout.lock(dir)).ino })}\n`);
    // Taken after the live process started: it is the holder, and the refusal offers a way out.
    ownerFile(new Date(Date.now() + 5_000).toISOString());
    const refused = await sessions.resume(session.id).then(() => undefined, (err: unknown) => err);
    expect(refused).toBeInstanceOf(SessionInUseError);
    expect((refused as Error).message).toMatch(
      new RegExp(`^Session ${session.id} is in use by process ${other.pid} on ${hostname()} \\(since [^)]+\\): quit it there first\\.$`),
    );
    expect((refused as SessionInUseError).advice).toMatchObject({ to: 'Or continue in a copy of it:', run: ['--fork', session.id] });
    // Taken in 2019 by whoever had that pid then: the live process reused it, and the session resumes.
    ownerFile('2019-01-01T00:00:00.000Z');
    const resumed = await sessions.resume(session.id);
    expect(resumed.messages.map((m) => m.content)).toEqual(['kept']);
    await resumed.close();
  });
});
