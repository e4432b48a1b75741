import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPiped, spawnPty, startAtPrompt } from '../helpers/pty.js';
import { sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('resuming and history', () => {
  it('--continue resumes the latest session of this project', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    await runPiped([], 'older\n', { home, cwd });
    const latest = await runPiped([], 'newer\n', { home, cwd });
    const latestId = /Saved (\S+) /.exec(latest.stderr)?.[1];
    const resumed = await runPiped(['--continue'], 'more\n', { home, cwd });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`Resumed session ${latestId} (2 messages`);
    expect(resumed.stderr).toContain('› newer\nEcho: newer (read 1 message)\n');
    expect(resumed.stdout).toBe('Echo: more (read 3 messages)\n');
  });

  it('--continue with no session yet, and --resume without a terminal, say what to do', async () => {
    const home = join(tmpHome(), 'absent');
    const cwd = tmpHome('chatkeep-project-');
    const cont = await runPiped(['-c'], '', { home, cwd });
    expect(cont.code).toBe(2);
    expect(cont.stderr).toBe(`chatkeep: No session to resume in ${cwd} yet. Start one with: chatkeep\n`);
    const resume = await runPiped(['--resume'], '', { home, cwd });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toBe('chatkeep: --resume needs an interactive terminal: pass --session-id ID instead. IDs: chatkeep sessions list\n');
  });

  it('--resume in a terminal opens the session browser; Enter resumes the highlighted session', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const first = await runPiped([], 'pick me\n', { home, cwd });
    const id = /Saved (\S+) /.exec(first.stderr)?.[1];
    const run = spawnPty(['--resume'], { home, cwd });
    await run.waitFor('Resume which session?');
    await run.waitFor(new RegExp(`› ${id} +now +2 closed `));
    run.write('\r');
    await run.waitFor(`Resumed session ${id} (2 messages`);
    expect(await run.quit()).toBe(0);
  });

  it('keeps input history per project across runs (up-arrow), in a 0600 file', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run: first, id } = await startAtPrompt([], { home, cwd });
    await first.say('remember this line', 'Echo: remember this line');
    expect(await first.quit()).toBe(0);
    const history = join(sessionDir(home, id)!, '..', '..', 'history');
    expect(statSync(history).mode & 0o777).toBe(0o600);

    const { run: second } = await startAtPrompt([], { home, cwd });
    const from = second.screen().length;
    second.write('\x1b[A');
    second.write('\x1b[A');
    await second.waitFor('remember this line', { from });
    second.write('\r');
    await second.waitFor('Echo: remember this line (read 1 message)');
    expect(await second.quit()).toBe(0);
  });

  it('SIGHUP (the terminal closed) saves like /quit', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const { run, id } = await startAtPrompt([], { home, cwd });
    await run.say('before hangup', 'Echo: before hangup');
    await run.prompt();
    process.kill(run.pid, 'SIGHUP');
    expect(await run.exited).toBe(0);
    const shown = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
    expect(JSON.parse(shown.stdout)).toMatchObject({ status: 'closed', messageCount: 2 });
  });
});
