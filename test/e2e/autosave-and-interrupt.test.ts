import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runPiped, spawnPty } from '../helpers/pty.js';
import { bannerId, sessionDir } from '../helpers/session-files.js';
import { tmpHome } from '../helpers/tmp-home.js';

describe('autosave and interruptions', () => {
  it('--autosave 1s writes session.json while the REPL idles at the prompt', async () => {
    const home = tmpHome();
    const run = spawnPty(['--autosave', '1s'], { home, cwd: tmpHome('chatkeep-project-') });
    const id = bannerId(await run.waitFor('autosave every'));
    await run.prompt();
    run.line('keep this');
    await run.waitFor('Echo: keep this (read 1 messages)');
    // Wait for a snapshot that holds the reply (the journal has it already; only a save writes session.json).
    const snapshot = (): string => {
      const file = join(sessionDir(home, id) ?? home, 'session.json');
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    };
    // Nothing typed from here on: only the timer can write the snapshot.
    const deadline = Date.now() + 15_000;
    while (!snapshot().includes('Echo: keep this (read 1 messages)') && Date.now() < deadline) await sleep(100);
    expect(snapshot()).toContain('Echo: keep this (read 1 messages)');
    await run.prompt();
    run.line('/quit');
    expect(await run.exited).toBe(0);
  });

  it('Ctrl-C during a slow reply stops it and keeps the partial text marked interrupted', async () => {
    const home = tmpHome();
    const cwd = tmpHome('chatkeep-project-');
    const run = spawnPty([], { home, cwd, env: { CHATKEEP_ECHO_DELAY_MS: '200' } });
    const id = bannerId(await run.waitFor('Type a message'));
    await run.prompt();
    run.line('alpha beta gamma delta epsilon zeta eta theta');
    await run.waitFor('Echo: alpha ');
    run.write('\x03');
    await run.waitFor('[interrupted]');
    await run.prompt();
    run.line('/quit');
    expect(await run.exited).toBe(0);

    const shown = await runPiped(['sessions', 'show', id, '--json'], '', { home, cwd });
    const [user, reply] = (JSON.parse(shown.stdout) as { messages: { role: string; content: string; interrupted?: boolean }[] }).messages;
    expect(user).toMatchObject({ role: 'user', content: 'alpha beta gamma delta epsilon zeta eta theta' });
    expect(reply?.interrupted).toBe(true);
    expect(reply?.content.startsWith('Echo: alpha ')).toBe(true);
    expect(reply?.content).not.toContain('(read 1 messages)');
    expect(run.screen()).toContain(`${reply?.content.trimEnd()} [interrupted]`);
  });

  it('SIGTERM saves and prints the way back', async () => {
    const run = spawnPty([], { home: tmpHome(), cwd: tmpHome('chatkeep-project-') });
    const id = bannerId(await run.waitFor('Type a message'));
    await run.prompt();
    run.line('hi');
    await run.waitFor('Echo: hi');
    process.kill(run.pid, 'SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.screen()).toContain(`Saved ${id} (2 messages).\nResume with: chatkeep --session-id ${id}\n`);
  });
});
