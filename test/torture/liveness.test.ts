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

  it('keeps the old rule for an owner file of an older build (no start time): a live pid holds, and the refusal offers a way out', async () => {
    const cwd = tmpHome('chatkeep-project-');
    const sessions = await openSessions({ home: tmpHome(), cwd });
    const session = await sessions.create();
    await session.append({ role: 'user', content: 'kept' });
    await session.close();
    const dir = (await session.status()).where!.files!.dir;
    const other = spawn('sleep', ['600'], { stdio: 'ignore' });
    onTestFinished(() => void other.kill('SIGKILL'));
    mkdirSync(layout.lock(dir));
    const old = { pid: other.pid, host: hostname(), startedAt: '2019-01-01T00:00:00.000Z', lockIno: statSync(layout.lock(dir)).ino };
    writeFileSync(layout.lockOwner(dir), `${JSON.stringify(old)}\n`);
    const refused = await sessions.resume(session.id).then(() => undefined, (err: unknown) => err);
    expect(refused).toBeInstanceOf(SessionInUseError);
    expect((refused as Error).message).toMatch(
      new RegExp(`^Session ${session.id} is in use by process ${other.pid} on ${hostname()} \\(since [^)]+ years ago\\)\\. Quit it there first, or continue in a copy of it: chatkeep --fork ${session.id}$`),
    );
  });
});
